/**
 * Runs the save cycle (`note-save.machine.ts`) of one open note against the server. The actor
 * outlives the editor: leaving the note (another note, another page) flushes the draft and the
 * actor stops once that save has settled, saying so if it could not be made. Every copy of the
 * note React Query gets (a refetch after a live event, say) is shown to the machine, which alone
 * decides whether the editor may take it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { notify } from '../../../lib/notices';
import { editNote, fetchNote, type Note } from '../api/notebook-api';
import { UNTITLED_NOTE } from '../messages';
import { storeNote } from '../note-cache';
import { noteSaveMachine, saveStatusOf, type SaveInput, type ServerNote } from '../note-save.machine';

export type NoteSaveActor = ActorRefFrom<typeof noteSaveMachine>;

const SETTLED = new Set(['clean', 'conflict', 'failed', 'discarded']);

/**
 * Lets a note's actor finish after its editor has gone: the draft is saved at once, and the
 * actor stops when that save has settled. A draft that could not be saved is announced.
 */
function detach(actor: NoteSaveActor, name: () => string): void {
  actor.send({ type: 'note.flush' });
  const finish = () => {
    const snapshot = actor.getSnapshot();
    if (!SETTLED.has(String(snapshot.value))) return false;
    if (snapshot.value !== 'clean' && snapshot.value !== 'discarded' && snapshot.context.draft) {
      notify({ type: 'error', message: `Your last changes to “${name()}” were not saved: ${snapshot.context.error ?? 'the note changed elsewhere'}` });
    }
    actor.stop();
    return true;
  };
  if (finish()) return;
  const subscription = actor.subscribe(() => {
    if (finish()) subscription.unsubscribe();
  });
}

/** Returns the running save actor of a note (null until it has started) and its status. */
export function useNoteAutosave(note: Note) {
  const queryClient = useQueryClient();
  const [actor, setActor] = useState<NoteSaveActor | null>(null);
  const noteId = note.id;
  // The editor starts from the note as it was when opened; so does the cycle.
  const openedVersion = useRef(note.version);

  useEffect(() => {
    const started = createActor(
      noteSaveMachine.provide({
        actors: {
          saveNote: fromPromise<ServerNote, SaveInput>(async ({ input }) => {
            const saved = await editNote(input.noteId, { version: input.version, ...input.draft });
            storeNote(queryClient, saved);
            return saved;
          }),
          loadNote: fromPromise<ServerNote, { noteId: string }>(async ({ input }) => {
            const latest = await fetchNote(input.noteId);
            storeNote(queryClient, latest);
            return latest;
          }),
        },
      }),
      { input: { noteId, version: openedVersion.current } },
    ).start();
    setActor(started);
    return () => {
      detach(started, () => started.getSnapshot().context.draft?.name || UNTITLED_NOTE);
      setActor((current) => (current === started ? null : current));
    };
  }, [noteId, queryClient]);

  const state = useSelector(actor ?? undefined, (s) => (s ? String(s.value) : 'clean'));
  const saved = useSelector(actor ?? undefined, (s) => s?.context.saved ?? false);
  const error = useSelector(actor ?? undefined, (s) => s?.context.error ?? null);

  // Each copy of the note the cache gets, and again whenever the cycle settles (a copy that came
  // while a save was on its way was set aside until the answer).
  useEffect(() => {
    actor?.send({ type: 'note.remote', note });
  }, [actor, note, state]);

  // Unsaved edits: saved when the page is hidden, and the browser asks before it is closed.
  useEffect(() => {
    if (!actor) return;
    const onHide = () => document.visibilityState === 'hidden' && actor.send({ type: 'note.flush' });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (actor.getSnapshot().value !== 'clean') event.preventDefault();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [actor]);

  return { actor, status: saveStatusOf(state, { saved }), error };
}
