/**
 * What a question is asked over, read from where the user is (the spec's scope derivation):
 * `channel_id` gives a channel scope, `board_id` a feed scope, a feed's or channel's page its
 * source, a document's preview that document; anything else is the default board, home.
 */
import { HOME_SCOPE_ID, type AskScope } from './types';

export function scopeFromLocation(pathname: string, search: URLSearchParams): AskScope {
  const channelId = search.get('channel_id') ?? undefined;
  const boardId = search.get('board_id') ?? undefined;
  if (channelId) return { type: 'feed', id: channelId, channel_id: channelId, ...(boardId ? { board_id: boardId } : {}) };
  if (boardId) return { type: 'feed', id: boardId, board_id: boardId };
  const [, category, source, third] = pathname.split('/').map((part) => decodeURIComponent(part ?? ''));
  if (category === 'preview' && source && third && source !== 'needl_notebooks') {
    return { type: 'document', id: third };
  }
  if ((category === 'feeds' || category === 'channels') && source && source !== HOME_SCOPE_ID) {
    return category === 'channels' ? { type: 'feed', id: source, channel_id: source } : { type: 'feed', id: source, board_id: source };
  }
  return { type: 'feed', id: HOME_SCOPE_ID };
}

export const sameScope = (a: AskScope, b: AskScope) => a.type === b.type && a.id === b.id && a.channel_id === b.channel_id;

/** Which suggested questions a scope shows: all for home (4), feed for a feed (2), none for a document. */
export function suggestionSlot(scope: AskScope): { key: 'all' | 'feed' | 'document'; count: number } {
  if (scope.type === 'document') return { key: 'document', count: 0 };
  if (scope.id === HOME_SCOPE_ID) return { key: 'all', count: 4 };
  return { key: 'feed', count: 2 };
}
