/**
 * The company search's flow, an ARIA combobox: typing opens the options (the matches the server
 * gives for what was typed, which the component holds in React Query); the arrow keys move the
 * active option, wrapping round; picking one (Enter, a click) puts its label in the box and
 * remembers its CIK, so Follow sends the CIK; typing again forgets the pick. Escape closes the
 * options, and a second Escape clears the box. Options are referred to by position and CIK only;
 * how many there are comes with each key press.
 */
import { assign, setup } from 'xstate';

export interface CompanySearchContext {
  /** What the box shows: what was typed, or the label of the company picked. */
  text: string;
  /** The position of the active option; -1 for none. */
  active: number;
  /** The CIK of the company picked from the options; null while the text is typed. */
  picked: string | null;
}

export type CompanySearchEvent =
  | { type: 'company.type'; text: string }
  | { type: 'company.next'; count: number }
  | { type: 'company.previous'; count: number }
  | { type: 'company.pick'; cik: string; label: string }
  | { type: 'company.close' }
  | { type: 'company.clear' };

/** Returns the position after `active` among `count` options, wrapping round (`step` is 1 or -1). */
export function stepActive(active: number, count: number, step: 1 | -1): number {
  if (count <= 0) return -1;
  // An option list that shrank since the last key press leaves no option active.
  const current = active < count ? active : -1;
  if (current === -1) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

export const companySearchMachine = setup({
  types: {} as { context: CompanySearchContext; events: CompanySearchEvent },
  actions: {
    type: assign(({ event }) => (event.type === 'company.type' ? { text: event.text, active: -1, picked: null } : {})),
    next: assign({ active: ({ context, event }) => (event.type === 'company.next' ? stepActive(context.active, event.count, 1) : -1) }),
    previous: assign({
      active: ({ context, event }) => (event.type === 'company.previous' ? stepActive(context.active, event.count, -1) : -1),
    }),
    pick: assign(({ event }) => (event.type === 'company.pick' ? { text: event.label, active: -1, picked: event.cik } : {})),
    deactivate: assign({ active: -1 }),
    clear: assign({ text: '', active: -1, picked: null }),
  },
  guards: {
    typedSomething: ({ event }) => event.type === 'company.type' && event.text.trim() !== '',
    hasTypedText: ({ context }) => context.text.trim() !== '' && context.picked === null,
  },
}).createMachine({
  id: 'companySearch',
  context: { text: '', active: -1, picked: null },
  initial: 'closed',
  on: {
    'company.type': [
      { guard: 'typedSomething', target: '.open', actions: 'type' },
      { target: '.closed', actions: 'type' },
    ],
    'company.pick': { target: '.closed', actions: 'pick' },
  },
  states: {
    closed: {
      on: {
        // Arrow Down reopens the matches of what was typed (not those of a company already picked).
        'company.next': { guard: 'hasTypedText', target: 'open', actions: 'next' },
        'company.previous': { guard: 'hasTypedText', target: 'open', actions: 'previous' },
        'company.clear': { actions: 'clear' },
      },
    },
    open: {
      on: {
        'company.next': { actions: 'next' },
        'company.previous': { actions: 'previous' },
        'company.close': { target: 'closed', actions: 'deactivate' },
        'company.clear': { target: 'closed', actions: 'clear' },
      },
    },
  },
});
