/**
 * The notebooks pages, loaded when first opened: they bring the editor (Tiptap and ProseMirror),
 * which cards and the rest of the app do without.
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/spinner';

const Notebooks = lazy(() => import('./components/notebooks-page').then((m) => ({ default: m.NotebooksPage })));
const NotePreview = lazy(() => import('./components/note-preview-page').then((m) => ({ default: m.NotePreviewPage })));

export function NotebooksPage() {
  return (
    <Suspense fallback={<Spinner label="Loading notebooks" />}>
      <Notebooks />
    </Suspense>
  );
}

export function NotePreviewPage() {
  return (
    <Suspense fallback={<Spinner label="Loading the note" />}>
      <NotePreview />
    </Suspense>
  );
}
