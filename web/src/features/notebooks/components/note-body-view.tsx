import type { JSONContent } from '@tiptap/core';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useEffect, useMemo } from 'react';
import { noteExtensions } from '../editor-extensions';
import { emptyDocument } from '../note-text';

const VIEW_PROPS = { attributes: { class: 'note-body note-body-read', 'aria-label': 'Note text', role: 'document' } };

/** A note's body drawn read-only with the editor's own schema, so it looks as it was written. */
export function NoteBodyView({ body }: { body: JSONContent | null | undefined }) {
  const extensions = useMemo(() => noteExtensions({ editable: false }), []);
  // Tiptap may replace (destroy) the instance it made before the first commit, and is null in between.
  const editor: Editor | null = useEditor({
    extensions,
    editable: false,
    content: body ?? emptyDocument(),
    editorProps: VIEW_PROPS,
  });
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.commands.setContent(body ?? emptyDocument(), { emitUpdate: false });
  }, [body, editor]);
  return <EditorContent editor={editor} />;
}
