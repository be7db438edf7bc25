import { useState } from 'react';
import type { DocumentCard } from '../api/document-api';
import { TablesDialog } from './tables-dialog';

/** Extract tables: opens the dialog with a PDF's tables (it asks for them only once opened). */
export function TablesButton({ doc }: { doc: Pick<DocumentCard, 'deeplink' | 'source' | 'title'> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        aria-label={`Extract tables from ${doc.title}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Extract tables
      </button>
      {open && <TablesDialog doc={doc} onClose={() => setOpen(false)} />}
    </>
  );
}
