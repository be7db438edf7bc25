/**
 * Notebooks feature: the notebooks page (/notebooks, with the open notebook and note in the
 * address) — the shelf (create with the name rules, rename, delete), a notebook's notes newest
 * first with their previews, and the note editor (Tiptap: headings, lists, quotes, links; the
 * body kept as Tiptap JSON) with autosave through `note-save.machine.ts` (1 s after typing stops,
 * at once on blur or leaving; the note's version goes with each save and a conflict is the
 * user's to settle; read-only without the `notebooks` flag, as the server refuses writes then);
 * the read-only note preview (/preview/needl_notebooks/{id}); and Add to Notes for document
 * cards and search results, handed to them by the app through src/lib/card-actions, after the
 * plan check (src/lib/pricing). The pages load on demand: they bring the editor.
 * It owns the calls under /notebook and /note; the query keys live in src/lib/queries because
 * the live socket invalidates them too.
 * Depends on: src/lib, src/components/ui.
 */
export { AddToNotesButton } from './components/add-to-notes-button';
export { NotebooksPage, NotePreviewPage } from './lazy-pages';
