import { Link } from 'react-router';
import { notePreviewPath } from '../../../lib/document-links';
import { formatRelative } from '../../../lib/format';
import type { NotePreview } from '../api/notebook-api';
import { UNTITLED_NOTE } from '../messages';
import { SnippetSource } from './snippet-source';

export interface NoteListProps {
  notes: NotePreview[];
  selectedId: string | null;
  onSelect: (noteId: string) => void;
  now?: Date;
}

/** A notebook's notes, newest first: title, when last changed, the text's preview, a snippet's source. */
export function NoteList({ notes, selectedId, onSelect, now }: NoteListProps) {
  return (
    <ul className="note-list" aria-label="Notes">
      {notes.map((note) => (
        <li
          key={note.id}
          className={`note-item${note.id === selectedId ? ' note-item-selected' : ''}`}
          data-testid="note-item"
          data-kind={note.kind}
        >
          <button
            type="button"
            className="note-item-open"
            aria-current={note.id === selectedId ? 'true' : undefined}
            onClick={() => onSelect(note.id)}
          >
            <span className="note-item-title">{note.name || UNTITLED_NOTE}</span>
            <span className="small muted">
              {note.kind === 'snippet' ? 'Snippet · ' : ''}
              {formatRelative(note.updated_at, now)}
            </span>
          </button>
          {note.preview && <p className="note-item-preview small">{note.preview}</p>}
          <SnippetSource snippet={note.snippet} />
          <Link className="small" to={notePreviewPath(note.id)}>
            Preview<span className="visually-hidden"> {note.name || UNTITLED_NOTE}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
