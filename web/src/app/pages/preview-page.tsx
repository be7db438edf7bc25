import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { channelQueries } from '../../features/channels';
import { PreviewPage } from '../../features/documents/pages';
import { CardScopeProvider, type CardScope } from '../../lib/card-details';

const NO_SCOPE: CardScope = {};

/**
 * /preview/{category}/{deeplink}: the documents feature's preview, read in the group the address
 * names (`channel_id`, a notification's link) when the user sees that group: its comments show,
 * the thread opens with `comments=true` and the comment `comment_id` names is highlighted. The
 * two features meet here, through the card scope, as they do on a group's page. `at` names the
 * document where the path does not (the full-page /document).
 */
export function DocumentPreviewPage({ at }: { at?: { category?: string; deeplink: string } } = {}) {
  const [params] = useSearchParams();
  const channelId = params.get('channel_id');
  const commentId = params.get('comment_id');
  const openComments = params.get('comments') === 'true' || Boolean(commentId);
  const channels = useQuery({ ...channelQueries.list(), enabled: Boolean(channelId) });
  const inGroup = Boolean(channelId && channels.data?.some((channel) => channel.id === channelId));
  const scope = useMemo<CardScope>(
    () => (inGroup ? { channelId, openComments, linkedCommentId: commentId } : NO_SCOPE),
    [inGroup, channelId, openComments, commentId],
  );
  return (
    <CardScopeProvider value={scope}>
      {/* Another comment of the same document opens its thread afresh. */}
      <PreviewPage key={commentId ?? ''} at={at} />
    </CardScopeProvider>
  );
}
