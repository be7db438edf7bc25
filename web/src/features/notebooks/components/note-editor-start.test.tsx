/**
 * The editor is on screen a frame or two before its save cycle has started (the cycle starts in
 * an effect). Here the cycle is held back until the test starts it, so that moment lasts.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import { renderWithProviders } from '../../../test/render';
import type { NoteSaveActor } from '../hooks/use-note-autosave';
import { noteSaveMachine, type SaveInput, type ServerNote } from '../note-save.machine';
import { emptyDocument } from '../note-text';
import { stubEditorLayout } from '../test/editor-layout';
import { note } from '../test/fixtures';
import { NoteEditor } from './note-editor';

const cycle = vi.hoisted(() => ({ start: (_actor: NoteSaveActor) => {} }));

vi.mock('../hooks/use-note-autosave', async () => {
  const { useState } = await import('react');
  return {
    useNoteAutosave: () => {
      const [actor, setActor] = useState<NoteSaveActor | null>(null);
      cycle.start = setActor;
      return { actor, status: 'idle', error: null };
    },
  };
});

beforeAll(stubEditorLayout);

it('saves a title typed into a new note before its save cycle has started', async () => {
  const saves: SaveInput[] = [];
  const fresh = note('n5', '', { body: emptyDocument() });
  renderWithProviders(<NoteEditor note={fresh} onDeleted={() => {}} />, { route: '/notebooks' });
  await userEvent.type(screen.getByRole('textbox', { name: 'Note title' }), 'Second visit');

  const actor = createActor(
    noteSaveMachine.provide({
      actors: {
        saveNote: fromPromise<ServerNote, SaveInput>(async ({ input }) => {
          saves.push(input);
          return { version: input.version + 1, ...input.draft };
        }),
      },
    }),
    { input: { noteId: 'n5', version: 1 } },
  ).start();
  act(() => cycle.start(actor));

  await waitFor(() => expect(saves).toHaveLength(1), { timeout: 3000 });
  expect(saves[0]).toMatchObject({ noteId: 'n5', version: 1, draft: { name: 'Second visit', body: { type: 'doc' } } });
  actor.stop();
});
