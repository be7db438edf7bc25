import { Link } from 'react-router';
import { formatFileSize } from '../../../lib/format';
import type { StorageUsage } from '../api/storage-api';
import { storageFilesPath } from '../storage/paths';
import '../storage/storage.css';

/** Short names for the common mime types; others show as they are. */
const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'text/markdown': 'Markdown',
  'text/plain': 'Text',
  'text/html': 'HTML',
  'text/csv': 'CSV',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/vnd.ms-powerpoint': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
};

export const typeName = (mime: string) => TYPE_NAMES[mime] ?? mime;

/** The space each file type takes, largest first; each type leads to its files. */
export function StorageByType({ rows }: { rows: StorageUsage['by_type'] }) {
  const sorted = [...rows].sort((a, b) => b.bytes - a.bytes);
  return (
    <table className="table">
      <caption className="visually-hidden">Storage by file type</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col" className="numeric">
            Files
          </th>
          <th scope="col" className="numeric">
            Size
          </th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((row) => (
          <tr key={row.mime_type}>
            <th scope="row" title={row.mime_type}>
              <Link className="storage-type-name" to={storageFilesPath(row.mime_type)}>{typeName(row.mime_type)}</Link>
            </th>
            <td className="numeric">{row.count}</td>
            <td className="numeric">{formatFileSize(row.bytes)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
