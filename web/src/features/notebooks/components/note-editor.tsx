import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { Note } from '../api/notebook-api';
import { noteExtensions } from '../editor-extensions';
import { useNoteAutosave, type NoteSaveActor } from '../hooks/use-note-autosave';
import { useDeleteNote } from '../hooks/use-notebook-mutations';
import { UNTITLED_NOTE } from '../messages';
import type { NoteDraft } from '../note-save.machine';
import { emptyDocument } from '../note-text';
import { EditorToolbar } from './editor-toolbar';
import { SaveStatus } from './save-status';
import { SnippetSource } from './snippet-source';

const EDITOR_PROPS = {
  attributes: { class: 'note-body', 'aria-label': 'Note text', role: 'textbox', 'aria-multiline': 'true' },
};

export interface NoteEditorProps {
  note: Note;
  /** The note was deleted elsewhere: the editor stays readable but takes no more edits. */
  deleted?: boolean;
  onDeleted: () => void;
}

/**
 * One note open for writing: its title, the rich-text body (Tiptap) with its toolbar, the save
 * state, and Delete. Edits go to the save cycle; a newer copy the cycle accepts (or a reload
 * after a conflict) replaces what is shown. Mount it with `key={note.id}`.
 */
export function NoteEditor({ note, deleted = false, onDeleted }: NoteEditorProps) {
  const { actor, status, error } = useNoteAutosave(note);
  const [name, setName] = useState(note.name);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteNote();
  // The editor's callbacks are made once; they read the current actor and title through refs.
  const actorRef = useRef<NoteSaveActor | null>(null);
  const nameRef = useRef(note.name);
  // The save cycle starts in an effect, a frame or two after the title and the text are on
  // screen. An edit made before then (a title typed or pasted at once into a new note) waits
  // here and goes out when the cycle starts, rather than being dropped unseen.
  const waitingRef = useRef<NoteDraft | null>(null);
  const edit = (draft: NoteDraft) => {
    if (actorRef.current) actorRef.current.send({ type: 'note.edit', draft });
    else waitingRef.current = draft;
  };
  useEffect(() => {
    actorRef.current = actor;
    const waiting = waitingRef.current;
    if (actor && waiting) {
      waitingRef.current = null;
      actor.send({ type: 'note.edit', draft: waiting });
    }
  }, [actor]);

  // Kept from render to render: Tiptap compares options on each render and re-applies changed ones.
  const extensions = useMemo(() => noteExtensions({ editable: true }), []);
  // Tiptap may replace (destroy) the instance it made before the first commit, and is null in between.
  const editor: Editor | null = useEditor({
    extensions,
    content: note.body ?? emptyDocument(),
    onUpdate: ({ editor: e }) => edit({ name: nameRef.current, body: e.getJSON() }),
    onBlur: () => actorRef.current?.send({ type: 'note.flush' }),
    editorProps: EDITOR_PROPS,
  });

  useEffect(() => {
    if (!actor || !editor || editor.isDestroyed) return;
    const subscription = actor.on('note.replaced', ({ note: latest }) => {
      editor.commands.setContent(latest.body ?? emptyDocument(), { emitUpdate: false });
      nameRef.current = latest.name;
      setName(latest.name);
    });
    return () => subscription.unsubscribe();
  }, [actor, editor]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!deleted);
  }, [deleted, editor]);

  const rename = (value: string) => {
    nameRef.current = value;
    setName(value);
    edit({ name: value, body: editor && !editor.isDestroyed ? editor.getJSON() : (note.body ?? emptyDocument()) });
  };

  const confirmDelete = () =>
    remove.mutate(
      { noteId: note.id, notebookId: note.notebook_id },
      {
        onSuccess: () => {
          // Nothing unsaved is sent to a note that no longer exists.
          actor?.send({ type: 'note.discard' });
          onDeleted();
        },
      },
    );

  return (
    <article className="note-editor card" aria-label={`Note ${name || UNTITLED_NOTE}`} data-testid="note-editor">
      <div className="note-editor-head">
        <input
          className="note-title-input"
          aria-label="Note title"
          placeholder={UNTITLED_NOTE}
          value={name}
          maxLength={300}
          readOnly={deleted}
          onChange={(event) => rename(event.target.value)}
          onBlur={() => actor?.send({ type: 'note.flush' })}
        />
        <SaveStatus
          status={status}
          error={error}
          onRetry={() => actor?.send({ type: 'save.retry' })}
          onReload={() => actor?.send({ type: 'conflict.reload' })}
          onKeepMine={() => actor?.send({ type: 'conflict.keepMine' })}
        />
        <button type="button" className="button button-quiet" onClick={() => setConfirming(true)} disabled={deleted}>
          Delete note
        </button>
      </div>
      <SnippetSource snippet={note.snippet} />
      {deleted && (
        <p className="note-conflict" role="alert">
          This note was deleted somewhere else. Copy anything you want to keep; it can no longer be saved.
        </p>
      )}
      {!deleted && editor && <EditorToolbar editor={editor} />}
      <EditorContent editor={editor} className="note-body-wrap" />
      {confirming && (
        <ConfirmDialog
          title="Delete this note?"
          confirmLabel="Delete"
          pending={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setConfirming(false)}
        >
          <p>“{name || UNTITLED_NOTE}” will be deleted. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </article>
  );
}
