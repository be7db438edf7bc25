import { useQuery } from '@tanstack/react-query';
import { ListState } from '../../../components/ui/list-state';
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
      <ListState
        query={tags}
        loadingLabel="Loading your tags"
        errorTitle="Your tags could not be loaded"
        isEmpty={(data) => data.length === 0}
        emptyTitle="No tags yet"
        emptyHint={<p>Tag a document from its card with the Tags button; your tags are listed here to rename or delete.</p>}
      >
        {(data) => (
          <ul className="tag-manager-list" aria-label="Your tags">
            {data.map((tag) => (
              <TagRow key={tag.id} tag={tag} />
            ))}
          </ul>
        )}
      </ListState>
    </section>
  );
}
