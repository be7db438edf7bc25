import { useParams } from 'react-router';
import { DocumentList } from './document-list';

/** /feeds/{source} and /feeds/{source}/{subCategory}: one source's documents. */
export function DocumentsPage() {
  const { source } = useParams();
  const sourceId = !source || source === 'home' ? null : source;
  return (
    <div className="page-narrow">
      <DocumentList key={sourceId ?? 'home'} source={sourceId} />
    </div>
  );
}
