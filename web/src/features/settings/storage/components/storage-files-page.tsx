import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ListState } from '../../../../components/ui/list-state';
import { Spinner } from '../../../../components/ui/spinner';
import { previewPath } from '../../../../lib/document-links';
import { formatDate, formatFileSize, titleFromSourceKey } from '../../../../lib/format';
import { storageQueries } from '../../api/storage-api';
import { SettingsNav } from '../../components/settings-nav';
import { typeName } from '../../components/storage-by-type';
import { storageFileQueries, type StoredFile } from '../api/storage-files-api';
import { isOfType } from '../file-types';
import { DRIVE_APP, DRIVE_PATH, STORAGE_PATH } from '../paths';
import '../storage.css';

/** Pages of 100 files read before the page asks whether to look further back. */
export const PAGES_PER_LOOK = 10;

const fileName = (file: StoredFile) => file.metadata.original_file_name || file.title;

function StoredFileItem({ file }: { file: StoredFile }) {
  const size = Number(file.metadata.size);
  return (
    <li className="storage-file">
      <Link className="storage-file-name" to={previewPath(file, 'apps')}>
        {fileName(file)}
      </Link>
      <p className="storage-file-facts small muted">
        {Number.isFinite(size) && size > 0 ? `${formatFileSize(size)} · ` : ''}uploaded {formatDate(file.ingested_at)}
      </p>
    </li>
  );
}

/**
 * Reads the app's files until every page is in or `pages` pages are, and returns those of
 * `type`. The server cannot filter by type, so this is done here.
 */
function useFilesOfType(app: string, type: string) {
  const [pagesWanted, setPagesWanted] = useState(PAGES_PER_LOOK);
  const files = useInfiniteQuery(storageFileQueries.files(app));
  const pagesRead = files.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, isError, fetchNextPage } = files;
  const reading = hasNextPage && pagesRead < pagesWanted && !isError;

  // Each page read asks for the next (a fetch can start and end between two renders).
  useEffect(() => {
    if (reading && !isFetching) void fetchNextPage();
  }, [reading, isFetching, pagesRead, fetchNextPage]);

  const matches = files.data?.pages.flatMap((page) => page.results).filter((file) => isOfType(file.metadata?.mime_type, type));
  return {
    files,
    matches,
    /** Still reading pages on its own. */
    reading,
    /** Stopped with older files unread: the person decides whether to look further. */
    more: Boolean(hasNextPage) && !reading,
    lookFurther: () => setPagesWanted((n) => n + PAGES_PER_LOOK),
  };
}

/** The files of one type in Needl Drive; `app` and `type` come from the address. */
function DriveFilesOfType({ type }: { type: string }) {
  const name = typeName(type);
  const usage = useQuery(storageQueries.usage());
  const counted = usage.data?.by_type.find((row) => row.mime_type === type);
  const { files, matches, reading, more, lookFurther } = useFilesOfType(DRIVE_APP, type);
  const query = {
    isPending: files.isPending || reading,
    isError: files.isError,
    error: files.error,
    data: matches && !reading ? matches : undefined,
    refetch: files.refetch,
  };
  const unlisted = counted && matches && !reading && !more ? counted.count - matches.length : 0;

  return (
    <section className="card stack" aria-labelledby="storage-files-heading">
      <h2 id="storage-files-heading" className="card-title">
        {name === type ? `Files of type ${type}` : `${name} files`} in Needl Drive
      </h2>
      {counted && (
        <p className="storage-usage">
          <strong>{formatFileSize(counted.bytes)}</strong>
          <span className="muted small">
            {' '}
            · {counted.count} {counted.count === 1 ? 'file' : 'files'}
          </span>
        </p>
      )}
      <ListState
        query={query}
        loadingLabel={matches ? `Looking through your files (${matches.length} found so far)` : 'Loading your files'}
        errorTitle="Your files could not be loaded"
        isEmpty={(found) => found.length === 0 && !more}
        emptyTitle={`No ${name === type ? type : name} files`}
        emptyHint={
          <p>
            None of the files in Needl Drive is of this type. <Link to={DRIVE_PATH}>Upload to Needl Drive</Link>
          </p>
        }
      >
        {(found) => (
          <>
            {found.length > 0 && (
              <ul className="storage-files" aria-label={`${name} files`}>
                {found.map((file) => (
                  <StoredFileItem key={file.deeplink} file={file} />
                ))}
              </ul>
            )}
            {more && (
              <div className="stack">
                <p className="small muted">
                  {found.length === 0 ? 'None of your newest files is of this type.' : 'These are among your newest files.'}
                </p>
                <div>
                  <button type="button" className="button" onClick={lookFurther} disabled={files.isFetchingNextPage}>
                    Look through older files
                  </button>
                </div>
              </div>
            )}
            {unlisted > 0 && (
              <p className="small muted">
                {unlisted === 1 ? '1 more file is' : `${unlisted} more files are`} still being processed; they show here once ready.
              </p>
            )}
          </>
        )}
      </ListState>
      {files.isFetchingNextPage && !reading && <Spinner label="Loading older files" />}
      <p className="storage-links small">
        <Link to={STORAGE_PATH}>All file types</Link>
        <Link to={DRIVE_PATH}>Manage files in Needl Drive</Link>
      </p>
    </section>
  );
}

/**
 * /settings/storage/{app}/{type}: an app's stored files of one mime type (the storage page's
 * rows lead here). Only Needl Drive keeps files in the storage; another app says so.
 */
export function StorageFilesPage() {
  const { app = '', type = '' } = useParams();
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      {app === DRIVE_APP ? (
        <DriveFilesOfType type={type} />
      ) : (
        <section className="card" aria-label="Storage">
          <EmptyState title={`${titleFromSourceKey(app)} keeps no files in your storage`}>
            <p>Only the files you upload to Needl Drive count towards your storage.</p>
            <p className="storage-links">
              <Link to={STORAGE_PATH}>See your storage</Link>
              <Link to={DRIVE_PATH}>Open Needl Drive</Link>
            </p>
          </EmptyState>
        </section>
      )}
    </div>
  );
}
