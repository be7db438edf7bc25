import { useParams } from 'react-router';
import { DocumentList } from './document-list';

/**
 * /feeds/home (My Data, with or without a source-type suffix) and /feeds/{source}: the list
 * of documents. The home suffixes show every document until sources carry a type.
 */
export function DocumentsPage() {
  const { source } = useParams();
  const sourceId = !source || source === 'home' ? null : source;
  return (
    <div className="page-narrow">
      <DocumentList key={sourceId ?? 'home'} source={sourceId} />
    </div>
  );
}
