import { useQuery } from '@tanstack/react-query';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { tagQueries } from '../api/tag-api';
import { useTagFlags } from '../hooks/use-tag-flags';
import { BookmarkToggle } from './bookmark-toggle';
import { TagPicker } from './tag-picker';

/**
 * A card's bookmark toggle and Tags button, each behind its flag. Neither shows on a Needl Web
 * result, nor for a document the user cannot tag (one read through someone's shared link).
 */
export function CardTagActions({ target }: { target: CardActionTarget }) {
  const scope = useCardScope();
  return scope.webResult ? null : <TagActions target={target} channelId={scope.channelId ?? null} feedId={scope.feedId ?? null} />;
}

function TagActions({ target, channelId, feedId }: { target: CardActionTarget; channelId: string | null; feedId: string | null }) {
  const flags = useTagFlags();
  const index = useQuery(tagQueries.index(target.deeplink, channelId));
  if (index.isError) return null;
  const current = index.data && (channelId ? index.data.shared_tags : index.data.user_tags);
  return (
    <>
      {flags.bookmarks && <BookmarkToggle deeplink={target.deeplink} bookmarked={index.data?.bookmarked} subject={target.title} />}
      {flags.tags && (
        <TagPicker deeplink={target.deeplink} subject={target.title} current={current} channelId={channelId} feedId={feedId} />
      )}
    </>
  );
}
