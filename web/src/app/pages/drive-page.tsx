import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { DocumentList } from '../../features/documents';
import { DRIVE_SOURCE, UploadPanel } from '../../features/uploads';

/**
 * /apps/needldrive and /feeds/home/drives: upload files to the drive, and the documents they
 * became. The two features meet here, in the app, so neither imports the other.
 */
export function DrivePage({ category = 'apps' }: { category?: string }) {
  return (
    <div className="page-narrow stack-lg">
      <UploadPanel source={DRIVE_SOURCE} />
      <DocumentList
        source={DRIVE_SOURCE}
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
