import { Link } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { formatFileSize } from '../../../../lib/format';
import { StorageCard } from '../../components/storage-page';
import { DRIVE_PATH, STORAGE_PATH } from '../paths';
import '../storage.css';

/**
 * /settings/storage/empty: what an empty storage means and how to fill it (upload to Needl
 * Drive). It checks the storage first: when files are there after all, it says so and leads to
 * the storage page instead.
 */
export function EmptyStoragePage() {
  return (
    <StorageCard headingId="empty-storage-heading">
      {(usage) =>
        usage.file_count === 0 ? (
          <EmptyState title="Your storage is empty">
            <p>
              Files you upload to Needl Drive are kept here
              {usage.quota_bytes !== null ? `, up to ${formatFileSize(usage.quota_bytes)} in all` : ''}. Each becomes a
              document you can read, search and ask AskNeedl about.
            </p>
            <p className="storage-links">
              <Link className="button button-primary" to={DRIVE_PATH}>
                Upload to Needl Drive
              </Link>
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="Your storage is not empty">
            <p>
              {usage.file_count} {usage.file_count === 1 ? 'file uses' : 'files use'} {formatFileSize(usage.used_bytes)}.
            </p>
            <p className="storage-links">
              <Link className="button button-primary" to={STORAGE_PATH}>
                See your storage
              </Link>
            </p>
          </EmptyState>
        )
      }
    </StorageCard>
  );
}
