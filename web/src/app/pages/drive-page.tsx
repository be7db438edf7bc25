import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { DocumentList } from '../../features/documents';
import { DRIVE_SOURCE } from '../../features/uploads';
import { UploadPanel } from '../../features/uploads/panel';

/**
 * /apps/needldrive (and its sub-routes), /needlbox/needldrive and /feeds/home/drives: upload
 * files to the drive, and the documents they became. On My Data the list is the `drives`
 * sub-category; elsewhere it is the drive source's. The two features meet here, in the app, so
 * neither imports the other.
 */
export function DrivePage({ category = 'apps' }: { category?: string }) {
  const myData = category === 'feeds';
  return (
    <div className="page-narrow stack-lg">
      {myData && (
        <p className="muted">
          Drives holds the files you upload to Needl Drive. Google Drive, OneDrive and Dropbox cannot be connected on this instance: download
          files from them and upload them here. <Link to="/apps">See which apps work here</Link>
        </p>
      )}
      <UploadPanel source={DRIVE_SOURCE} />
      <DocumentList
        source={myData ? null : DRIVE_SOURCE}
        subCategory={myData ? 'drives' : null}
        category={category}
        empty={
          <EmptyState title="No files yet">
            <p>
              Upload PDFs or documents above; each becomes a document you can read and search. See your usage in{' '}
              <Link to="/settings/storage">Storage</Link>.
            </p>
          </EmptyState>
        }
      />
    </div>
  );
}
