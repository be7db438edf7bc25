/**
 * The expandable search input: collapsed to an icon button, expanded to a text input. It
 * collapses on blur when empty; the close button clears it and collapses; Escape collapses
 * (keeping the text for next time); Enter submits a non-empty query. Focus moves are actions
 * the component provides, so tests can check them without a DOM.
 */
import { assign, setup } from 'xstate';

export interface SearchBoxContext {
  text: string;
}

export type SearchBoxEvent =
  | { type: 'search.open' }
  | { type: 'search.type'; text: string }
  | { type: 'search.blur' }
  | { type: 'search.close' }
  | { type: 'search.escape' }
  | { type: 'search.submit' };

export const searchBoxMachine = setup({
  types: {} as { context: SearchBoxContext; events: SearchBoxEvent; input: { text?: string } | undefined },
  actions: {
    /** Runs the search; provided by the component (it navigates). */
    submit: (_, _params: { text: string }) => {},
    /** Puts the caret in the input once it shows. */
    focusInput: () => {},
    /** Gives focus back to the icon button when the box closes under the user's hand. */
    focusToggle: () => {},
    setText: assign({ text: ({ event }) => (event.type === 'search.type' ? event.text : '') }),
    clear: assign({ text: '' }),
  },
  guards: {
    isEmpty: ({ context }) => context.text.trim() === '',
    hasText: ({ context }) => context.text.trim() !== '',
  },
}).createMachine({
  id: 'searchBox',
  context: ({ input }) => ({ text: input?.text ?? '' }),
  initial: 'collapsed',
  states: {
    collapsed: {
      on: {
        'search.open': { target: 'expanded', actions: 'focusInput' },
      },
    },
    expanded: {
      on: {
        'search.type': { actions: 'setText' },
        'search.blur': { guard: 'isEmpty', target: 'collapsed' },
        'search.close': { target: 'collapsed', actions: ['clear', 'focusToggle'] },
        'search.escape': { target: 'collapsed', actions: 'focusToggle' },
        'search.submit': {
          guard: 'hasText',
          actions: { type: 'submit', params: ({ context }) => ({ text: context.text.trim() }) },
        },
      },
    },
  },
});
