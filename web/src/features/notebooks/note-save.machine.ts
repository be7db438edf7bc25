/**
 * The save cycle of one open note. Edits wait for a pause in typing (1 s) and are then saved
 * with the version the editor showed; blur and leaving the note save at once. A save refused
 * because the note changed elsewhere (409), or a newer copy arriving while there are unsaved
 * edits, stops autosave and reports a conflict: the user picks "Reload latest" (drop the draft)
 * or "Keep mine" (save the draft over the newer version, knowingly). Nothing is overwritten
 * silently, in either direction. When the note is clean, a newer copy from elsewhere simply
 * replaces what the editor shows (`note.replaced` is emitted for the component to apply).
 *
 * Saving and loading are named actors, so tests provide fakes; the machine holds the draft and
 * the version, the note itself lives in React Query.
 */
import type { JSONContent } from '@tiptap/core';
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { isApiError } from '../../lib/api-client';

/** How long typing must pause before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 1000;

export interface NoteDraft {
  name: string;
  body: JSONContent;
}

/** What the machine needs of a note as the server has it. */
export interface ServerNote {
  version: number;
  name: string;
  body?: JSONContent | null;
}

export interface NoteSaveContext {
  noteId: string;
  /** The version the editor shows: the loaded or last saved one. Edits are based on it. */
  version: number;
  /** The user's latest edit not yet known to be saved; null when there is none. */
  draft: NoteDraft | null;
  /** The draft the save on its way carries, to tell whether more was typed meanwhile. */
  sent: NoteDraft | null;
  /** Set by a flush (blur, leaving the note): edits made while saving go out at once, not after a pause. */
  flushing: boolean;
  /** Why the last save or reload failed (not a conflict). */
  error: string | null;
  /** Whether this note has been saved since it was opened, for the "Saved" label. */
  saved: boolean;
}

export type NoteSaveEvent =
  | { type: 'note.edit'; draft: NoteDraft }
  | { type: 'note.flush' }
  | { type: 'note.remote'; note: ServerNote }
  | { type: 'conflict.reload' }
  | { type: 'conflict.keepMine' }
  | { type: 'save.retry' }
  | { type: 'note.discard' };

export type NoteSaveEmitted = { type: 'note.replaced'; note: ServerNote };

export interface SaveInput {
  noteId: string;
  version: number;
  draft: NoteDraft;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'the note could not be saved');

export const noteSaveMachine = setup({
  types: {} as {
    context: NoteSaveContext;
    events: NoteSaveEvent;
    emitted: NoteSaveEmitted;
    input: { noteId: string; version: number };
  },
  actors: {
    /** Saves the draft on top of `version`; answers the note as saved. */
    saveNote: fromPromise<ServerNote, SaveInput>(async () => {
      throw new Error('saveNote is provided by the component');
    }),
    /** Fetches the note as the server has it now. */
    loadNote: fromPromise<ServerNote, { noteId: string }>(async () => {
      throw new Error('loadNote is provided by the component');
    }),
  },
  delays: { autosave: AUTOSAVE_DELAY_MS },
  guards: {
    newerThanShown: ({ context, event }) => event.type === 'note.remote' && event.note.version > context.version,
    /** The server refused the save because the note has a newer version. */
    isConflict: (_, params: { error: unknown }) => isApiError(params.error) && params.error.status === 409,
    nothingToSave: ({ context }) => context.draft === null,
    editedWhileSaving: ({ context }) => context.draft !== null && context.draft !== context.sent,
    editedWhileSavingAndFlushing: ({ context }) =>
      context.flushing && context.draft !== null && context.draft !== context.sent,
  },
  actions: {
    takeDraft: assign({ draft: ({ context, event }) => (event.type === 'note.edit' ? event.draft : context.draft) }),
    markFlushing: assign({ flushing: true }),
    /** Adopts a newer copy of the note while clean: its version, and the editor shows it. */
    replaceWithRemote: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'note.remote') return;
      enqueue.assign({ version: event.note.version });
      enqueue.emit({ type: 'note.replaced', note: event.note });
    }),
  },
}).createMachine({
  id: 'noteSave',
  context: ({ input }) => ({
    noteId: input.noteId,
    version: input.version,
    draft: null,
    sent: null,
    flushing: false,
    error: null,
    saved: false,
  }),
  initial: 'clean',
  on: {
    // The note is being deleted: whatever is unsaved goes with it.
    'note.discard': { target: '.discarded', actions: assign({ draft: null, sent: null }) },
  },
  states: {
    clean: {
      entry: assign({ flushing: false }),
      on: {
        'note.edit': { target: 'dirty', actions: 'takeDraft' },
        'note.remote': { guard: 'newerThanShown', actions: 'replaceWithRemote' },
      },
    },
    dirty: {
      after: { autosave: 'saving' },
      on: {
        'note.edit': { target: 'dirty', reenter: true, actions: 'takeDraft' },
        'note.flush': 'saving',
        'note.remote': { guard: 'newerThanShown', target: 'conflict' },
      },
    },
    saving: {
      entry: assign({ sent: ({ context }) => context.draft, error: null }),
      invoke: {
        src: 'saveNote',
        input: ({ context }) => ({ noteId: context.noteId, version: context.version, draft: context.draft as NoteDraft }),
        onDone: [
          {
            guard: 'editedWhileSavingAndFlushing',
            target: 'saving',
            reenter: true,
            actions: assign({ version: ({ event }) => event.output.version, saved: true }),
          },
          {
            guard: 'editedWhileSaving',
            target: 'dirty',
            actions: assign({ version: ({ event }) => event.output.version, saved: true }),
          },
          {
            target: 'clean',
            actions: assign({ version: ({ event }) => event.output.version, draft: null, sent: null, saved: true }),
          },
        ],
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: assign({ sent: null }),
          },
          { target: 'failed', actions: assign({ sent: null, error: ({ event }) => messageOf(event.error) }) },
        ],
      },
      on: {
        'note.edit': { actions: 'takeDraft' },
        'note.flush': { actions: 'markFlushing' },
        // A newer copy now is most likely this very save coming back: the answer settles it.
      },
    },
    failed: {
      on: {
        'note.edit': { target: 'dirty', actions: 'takeDraft' },
        'note.flush': 'saving',
        'save.retry': 'saving',
        'note.remote': { guard: 'newerThanShown', target: 'conflict' },
      },
    },
    conflict: {
      on: {
        // The draft keeps growing (nothing typed is lost), but nothing is saved until the user chooses.
        'note.edit': { actions: 'takeDraft' },
        'conflict.reload': 'reloading',
        'conflict.keepMine': 'rebasing',
      },
    },
    reloading: {
      invoke: {
        src: 'loadNote',
        input: ({ context }) => ({ noteId: context.noteId }),
        onDone: {
          target: 'clean',
          actions: [
            assign({ version: ({ event }) => event.output.version, draft: null, error: null }),
            emit(({ event }) => ({ type: 'note.replaced' as const, note: event.output })),
          ],
        },
        onError: { target: 'conflict', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    rebasing: {
      invoke: {
        src: 'loadNote',
        input: ({ context }) => ({ noteId: context.noteId }),
        onDone: [
          // Nothing left to save (the draft was emptied meanwhile): take theirs.
          { guard: 'nothingToSave', target: 'clean', actions: assign({ version: ({ event }) => event.output.version }) },
          { target: 'saving', actions: assign({ version: ({ event }) => event.output.version, error: null }) },
        ],
        onError: { target: 'conflict', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
      on: { 'note.edit': { actions: 'takeDraft' } },
    },
    discarded: { type: 'final' },
  },
});

/** What the editor shows about saving. */
export type SaveStatus = 'saved' | 'saving' | 'failed' | 'conflict' | 'idle';

/** Returns the label state for a machine state: pending edits and saves read as "Saving…". */
export function saveStatusOf(state: string, context: Pick<NoteSaveContext, 'saved'>): SaveStatus {
  switch (state) {
    case 'dirty':
    case 'saving':
    case 'rebasing':
      return 'saving';
    case 'failed':
      return 'failed';
    case 'conflict':
    case 'reloading':
      return 'conflict';
    default:
      return context.saved ? 'saved' : 'idle';
  }
}
