/** Server answers for the notebooks feature's component tests. */
import type { Note, Notebook, NotePreview } from '../api/notebook-api';

export const notebook = (id: string, name: string, noteCount = 0): Notebook => ({
  notebook_id: id,
  notebook_name: name,
  notebook_type: 'user',
  default: false,
  feed_id: null,
  channel_id: null,
  notebook_created_at: '2026-11-20T10:00:00Z',
  notebook_updated_at: '2026-11-20T10:00:00Z',
  note_count: noteCount,
});

export const notePreview = (id: string, name: string, overrides: Partial<NotePreview> = {}): NotePreview => ({
  id,
  name,
  kind: 'note',
  notebook_id: 'b1',
  notebook_name: 'Research',
  preview: '',
  version: 1,
  snippet: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  ...overrides,
});

export const richBody = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Plan for Q4' }] },
    {
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'hire two' }] }] },
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'ship notes' }] }] },
      ],
    },
  ],
};

export const note = (id: string, name: string, overrides: Partial<Note> = {}): Note => ({
  ...notePreview(id, name),
  body: richBody,
  ...overrides,
});
