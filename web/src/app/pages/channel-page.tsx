import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { ChannelFrame, channelListings, channelQueries, CommentFeed } from '../../features/channels';
import { DocumentList } from '../../features/documents';
import { TagFilter } from '../../features/tags';
import { CardScopeProvider } from '../../lib/card-details';
import { tagFilterOf } from './tagged-documents-page';

/**
 * `/channels/{source}` and `/channels/{source}/{subCategory}`: a group's documents (as cards,
 * with its shared tags and comments), its comments tab (`comments`) or its shared tags with the
 * tag filter (`tags`). The channels feature draws the frame, the documents feature the cards;
 * they meet here, with the card scope naming the group.
 */
export function ChannelPage() {
  const { source = '', subCategory } = useParams();
  const scope = useMemo(() => ({ channelId: source }), [source]);
  let body;
  if (subCategory === 'comments') body = <CommentFeed channelId={source} />;
  else if (subCategory === 'tags') body = <ChannelTags channelId={source} />;
  else body = <ChannelDocuments channelId={source} />;
  return (
    <ChannelFrame key={source} channelId={source}>
      <CardScopeProvider value={scope}>{body}</CardScopeProvider>
    </ChannelFrame>
  );
}

function ChannelDocuments({ channelId }: { channelId: string }) {
  return (
    <DocumentList
      source={null}
      listing={channelListings.items(channelId)}
      category="channels"
      hideDelete
      empty={
        <EmptyState title="Nothing shared yet">
          <p>Share a document into this group from its card with “Add to group”; everyone in the group can then read and comment on it.</p>
        </EmptyState>
      }
    />
  );
}

/** `/channels/{channelId}/tags`: the group's shared tags as a filter, and the documents carrying the chosen one. */
function ChannelTags({ channelId }: { channelId: string }) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const tags = useQuery(channelQueries.tags(channelId));
  const tagId = tagFilterOf(params, location.state);
  const choose = (id: string | null) => setParams(id ? { tag_id: id } : {}, { state: id ? { tagId: id } : null });

  if (tags.isPending) return <Spinner label="Loading shared tags" />;
  const known = !tagId || !tags.data || tags.data.some((t) => t.id === tagId);
  return (
    <div className="stack-lg">
      {tags.data && tags.data.length > 0 ? (
        <TagFilter tags={tags.data} value={known ? tagId : null} onChange={choose} />
      ) : (
        <p className="muted">No shared tags yet: tag a document on this group's page and the tag is shared with the group.</p>
      )}
      {!known ? (
        <EmptyState title="This tag no longer exists">
          <p>
            It may have been deleted or renamed. <Link to={`/channels/${encodeURIComponent(channelId)}/tags`}>See all shared tags</Link>
          </p>
        </EmptyState>
      ) : (
        <DocumentList
          key={tagId ?? 'all'}
          source={null}
          listing={channelListings.items(channelId, tagId)}
          category="channels"
          hideDelete
          empty={<EmptyState title={tagId ? 'Nothing has this tag' : 'Nothing shared yet'} />}
        />
      )}
    </div>
  );
}
