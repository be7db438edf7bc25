import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Spinner } from '../../../components/ui/spinner';
import { formatFileSize } from '../../../lib/format';
import { storageQueries, type StorageUsage } from '../api/storage-api';
import { SettingsNav } from './settings-nav';
import { StorageByType } from './storage-by-type';

/** Returns "1.5 MB of 1 GB used" (or "1.5 MB used" without a quota). */
export function usageText(usage: Pick<StorageUsage, 'used_bytes' | 'quota_bytes'>): string {
  const used = formatFileSize(usage.used_bytes);
  return usage.quota_bytes === null ? `${used} used` : `${used} of ${formatFileSize(usage.quota_bytes)} used`;
}

function StorageSummary({ usage }: { usage: StorageUsage }) {
  const percent = usage.quota_bytes ? (usage.used_bytes / usage.quota_bytes) * 100 : 0;
  return (
    <div className="stack">
      <p className="storage-usage">
        <strong>{usageText(usage)}</strong>
        <span className="muted small">
          {' '}
          · {usage.file_count} {usage.file_count === 1 ? 'file' : 'files'}
        </span>
      </p>
      {usage.quota_bytes !== null && <ProgressBar value={percent} label="Storage used" valueText={usageText(usage)} />}
      {usage.quota_bytes !== null && percent >= 90 && (
        <p className="form-error" role="status">
          Your storage is almost full. Delete files you no longer need from <Link to="/apps/needldrive">Needl Drive</Link>.
        </p>
      )}
    </div>
  );
}

/**
 * A settings page's card about the user's storage: the loading and error states, and `children`
 * given the usage once it is loaded.
 */
export function StorageCard({
  headingId,
  children,
}: {
  headingId: string;
  children: (usage: StorageUsage) => ReactNode;
}) {
  const usage = useQuery(storageQueries.usage());
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby={headingId}>
        <h2 id={headingId} className="card-title">
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
        ) : (
          children(usage.data)
        )}
      </section>
    </div>
  );
}

/** /settings/storage: how much of the quota the user's uploads take, and by which file types. */
export function StoragePage() {
  return (
    <StorageCard headingId="storage-heading">
      {(usage) =>
        usage.file_count === 0 ? (
          <>
            <StorageSummary usage={usage} />
            <EmptyState title="No files yet">
              <p>
                Files you upload count here. <Link to="/apps/needldrive">Upload to Needl Drive</Link>
              </p>
            </EmptyState>
          </>
        ) : (
          <>
            <StorageSummary usage={usage} />
            <StorageByType rows={usage.by_type} />
          </>
        )
      }
    </StorageCard>
  );
}
