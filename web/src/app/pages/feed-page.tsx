import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { CommentFeed } from '../../features/channels';
import { DocumentList, DocumentsPage } from '../../features/documents';
import { boardListings, boardQueries, FeedFrame, feedTabOf, useIsFeed } from '../../features/feeds';
import { CardScopeProvider } from '../../lib/card-details';

/**
 * `/feeds/{source}` and `/feeds/{source}/{subCategory}`: a source's documents, or, when the
 * segment is one of the user's custom feeds, that feed: its documents (all, or a sub-tab's:
 * links, media, web clips) and its comments. The feeds feature draws the frame, the documents
 * feature the cards, the channels feature the comments; they meet here.
 */
export function FeedSourcePage() {
  const { source } = useParams();
  const kind = useIsFeed(source);
  if (kind === 'checking') return <Spinner label="Loading the feed" />;
  if (kind === 'source') return <DocumentsPage />;
  return <BoardPage boardId={source!} />;
}

function BoardPage({ boardId }: { boardId: string }) {
  const { subCategory } = useParams();
  const tab = feedTabOf(subCategory);
  const scope = useMemo(() => ({ feedId: boardId }), [boardId]);
  return (
    <FeedFrame key={boardId} boardId={boardId}>
      <CardScopeProvider value={scope}>
        {tab === 'comments' ? (
          <BoardComments boardId={boardId} />
        ) : (
          <DocumentList
            key={tab}
            source={null}
            listing={boardListings.documents(boardId, tab === 'documents' ? null : tab)}
            empty={
              <EmptyState title="Nothing matches this feed yet">
                <p>New documents that match appear here as they arrive. Edit the feed to widen its keywords or sources.</p>
              </EmptyState>
            }
          />
        )}
      </CardScopeProvider>
    </FeedFrame>
  );
}

/** A feed's comments: those in the groups it is shared into. */
function BoardComments({ boardId }: { boardId: string }) {
  const channels = useQuery(boardQueries.list()).data?.find((b) => b.board_id === boardId)?.channels ?? [];
  if (channels.length === 0) {
    return (
      <EmptyState title="No comments here">
        <p>Comments belong to groups: share this feed into a group (Settings, Feeds) and its members can comment on its documents.</p>
      </EmptyState>
    );
  }
  return (
    <div className="stack-lg">
      {channels.map((c) => (
        <section key={c.id} aria-label={`Comments in ${c.name}`} className="stack">
          <h2 className="section-title">{c.name}</h2>
          <CommentFeed channelId={c.id} />
        </section>
      ))}
    </div>
  );
}
