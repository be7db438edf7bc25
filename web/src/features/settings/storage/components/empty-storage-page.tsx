import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { Spinner } from '../../../../components/ui/spinner';
import { formatFileSize } from '../../../../lib/format';
import { storageQueries } from '../../api/storage-api';
import { SettingsNav } from '../../components/settings-nav';
import { DRIVE_PATH, STORAGE_PATH } from '../paths';
import '../storage.css';

/**
 * /settings/storage/empty: what an empty storage means and how to fill it (upload to Needl
 * Drive). It checks the storage first: when files are there after all, it says so and leads to
 * the storage page instead.
 */
export function EmptyStoragePage() {
  const usage = useQuery(storageQueries.usage());
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="empty-storage-heading">
        <h2 id="empty-storage-heading" className="card-title">
          Storage
        </h2>
        {usage.isPending ? (
          <Spinner label="Loading storage" />
        ) : usage.isError ? (
          <div className="form-error" role="alert">
            Your storage could not be loaded.{' '}
            <button type="button" className="button button-quiet" onClick={() => void usage.refetch()}>
              Try again
            </button>
          </div>
        ) : usage.data.file_count === 0 ? (
          <EmptyState title="Your storage is empty">
            <p>
              Files you upload to Needl Drive are kept here
              {usage.data.quota_bytes !== null ? `, up to ${formatFileSize(usage.data.quota_bytes)} in all` : ''}. Each becomes a
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
              {usage.data.file_count} {usage.data.file_count === 1 ? 'file uses' : 'files use'} {formatFileSize(usage.data.used_bytes)}.
            </p>
            <p className="storage-links">
              <Link className="button button-primary" to={STORAGE_PATH}>
                See your storage
              </Link>
            </p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}
