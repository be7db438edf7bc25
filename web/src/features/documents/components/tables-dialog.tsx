import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessage } from '../../../lib/api-client';
import type { DocumentCard } from '../api/document-api';
import { tableQueries, type DocumentTable, type TableFormat } from '../api/table-api';
import { useDownloadTables } from '../hooks/use-tables';
import '../document-tools.css';

/** Rows of each table shown under its header row; the downloads hold them all. */
export const PREVIEW_ROWS = 3;

export const NO_TABLES = 'No tables were found in this document.';

export interface TablesDialogProps {
  doc: Pick<DocumentCard, 'deeplink' | 'source' | 'title'>;
  onClose: () => void;
}

/**
 * The tables found on a PDF's pages, each named by its number and page with its first rows, and
 * the downloads of them all as CSV or Excel. Escape and Close shut it.
 */
export function TablesDialog({ doc, onClose }: TablesDialogProps) {
  const tables = useQuery(tableQueries.list(doc));
  const download = useDownloadTables();
  const none = !tables.data || tables.data.length === 0;
  const downloadButton = (format: TableFormat, label: string) => {
    const pending = download.isPending && download.variables.format === format;
    return (
      // aria-disabled while a download runs, not disabled: a disabled button drops the keyboard
      // focus to the page, and the dialog would stop hearing Escape and keeping Tab inside.
      <button
        type="button"
        className="button"
        disabled={none}
        aria-disabled={download.isPending || undefined}
        onClick={() => {
          if (!download.isPending) download.mutate({ doc, format });
        }}
      >
        {pending ? 'Downloading…' : label}
      </button>
    );
  };

  return (
    <Modal
      title="Tables in this document"
      size="large"
      onClose={onClose}
      actions={
        <>
          {downloadButton('csv', 'Download CSV')}
          {downloadButton('xlsx', 'Download Excel (.xlsx)')}
          <button type="button" className="button button-primary" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <div className="tables-dialog-body">
        <p className="muted tables-dialog-subject">{doc.title}</p>
        {tables.isPending && <Spinner label="Looking for tables" showLabel />}
        {tables.isError && (
          <div role="alert">
            <p>{serverMessage(tables.error) ?? 'The tables could not be loaded.'}</p>
            <button type="button" className="button" onClick={() => void tables.refetch()}>
              Try again
            </button>
          </div>
        )}
        {tables.isSuccess && none && <p>{NO_TABLES}</p>}
        {tables.isSuccess && !none && (
          <ol className="table-previews" aria-label={`${tables.data.length} ${tables.data.length === 1 ? 'table' : 'tables'}`}>
            {tables.data.map((table) => (
              <TablePreview key={table.number} table={table} />
            ))}
          </ol>
        )}
      </div>
    </Modal>
  );
}

/** One table: its name, and its header row and first rows, scrolling sideways when wide. */
function TablePreview({ table }: { table: DocumentTable }) {
  const nameId = useId();
  const [head = [], ...body] = table.rows;
  const shown = body.slice(0, PREVIEW_ROWS);
  const more = body.length - shown.length;
  return (
    <li className="table-preview">
      <h3 id={nameId} className="table-preview-name">
        Table {table.number} · page {table.page}
      </h3>
      {/* Focusable, so a keyboard can scroll a wide table. */}
      <div className="table-scroll" role="region" aria-labelledby={nameId} tabIndex={0}>
        <table className="table" aria-labelledby={nameId}>
          <thead>
            <tr>
              {head.map((cell, i) => (
                <th key={i} scope="col">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more > 0 && (
        <p className="small muted">
          and {more} more {more === 1 ? 'row' : 'rows'}
        </p>
      )}
    </li>
  );
}
