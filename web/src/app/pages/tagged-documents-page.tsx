import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { DocumentList } from '../../features/documents';
import { TagFilter, tagListings, tagQueries } from '../../features/tags';

/** Returns the tag filter: the address's `tag_id`, else the one passed as navigation state. */
export function tagFilterOf(params: URLSearchParams, state: unknown): string | null {
  const fromState = (state as { tagId?: unknown } | null)?.tagId;
  return params.get('tag_id') || (typeof fromState === 'string' && fromState ? fromState : null);
}

/**
 * /needlbox/tags/all: the documents under the user's tags, the most recently tagged first, with
 * the tag filter (one tag, or all). The filter comes as navigation state or `?tag_id=`, and is
 * kept in the address so a reload or a shared link keeps it.
 */
export function TaggedDocumentsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const tags = useQuery(tagQueries.userTags());
  const tagId = tagFilterOf(params, location.state);
  const choose = (id: string | null) => setParams(id ? { tag_id: id } : {}, { state: id ? { tagId: id } : null });

  if (tags.isPending) return <Spinner label="Loading your tags" />;
  const known = !tagId || !tags.data || tags.data.some((t) => t.id === tagId);
  return (
    <div className="page-narrow stack-lg">
      {tags.data && tags.data.length > 0 && <TagFilter tags={tags.data} value={known ? tagId : null} onChange={choose} />}
      {!known ? (
        <EmptyState title="This tag no longer exists">
          <p>
            It may have been deleted or renamed elsewhere. <Link to="/needlbox/tags/all">See all your tagged documents</Link>
          </p>
        </EmptyState>
      ) : (
        <DocumentList
          key={tagId ?? 'all'}
          source={null}
          listing={tagListings.tagged(tagId)}
          category="needlbox"
          hideDelete
          empty={
            <EmptyState title={tagId ? 'Nothing has this tag' : 'Nothing tagged yet'}>
              <p>
                Tag documents from their cards with the Tags button; they show up here. Rename or delete tags in the{' '}
                <Link to="/settings/manage-tags">Tags Manager</Link>.
              </p>
            </EmptyState>
          }
        />
      )}
    </div>
  );
}
