import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { tagQueries } from '../api/tag-api';
import { TagRow } from './tag-row';

/** The tags manager (`settings/manage-tags`): the user's tags, each renamed or deleted in place. */
export function TagsManager() {
  const tags = useQuery(tagQueries.userTags());
  return (
    <section className="card stack" aria-labelledby="manage-tags-heading">
      <h2 id="manage-tags-heading" className="card-title">
        Your tags
      </h2>
      {tags.isPending ? (
        <Spinner label="Loading your tags" />
      ) : tags.isError ? (
        <div className="form-error" role="alert">
          Your tags could not be loaded.{' '}
          <button type="button" className="button button-quiet" onClick={() => void tags.refetch()}>
            Try again
          </button>
        </div>
      ) : tags.data.length === 0 ? (
        <EmptyState title="No tags yet">
          <p>Tag a document from its card with the Tags button; your tags are listed here to rename or delete.</p>
        </EmptyState>
      ) : (
        <ul className="tag-manager-list" aria-label="Your tags">
          {tags.data.map((tag) => (
            <TagRow key={tag.id} tag={tag} />
          ))}
        </ul>
      )}
    </section>
  );
}
