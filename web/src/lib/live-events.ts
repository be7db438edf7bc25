/**
 * What each pushed live event means for the cache: "sockets notify, queries fetch". The socket
 * tells us what changed; the affected queries are invalidated and refetch if someone shows them.
 */
import type { InvalidateQueryFilters, QueryClient, QueryKey } from '@tanstack/react-query';
import { auditHeadOf, noteAuditHead } from './live-audit';
import { assistantKeys } from './queries/assistant-queries';
import { boardKeys } from './queries/board-keys';
import { channelKeys, commentKeys } from './queries/channel-keys';
import { documentKeys } from './queries/document-keys';
import { featureQueries } from './queries/feature-queries';
import { libraryKeys } from './queries/library-keys';
import { notebookKeys } from './queries/notebook-keys';
import { notificationKeys } from './queries/notification-keys';
import { onboardingQueries, organizationQueries } from './queries/organization-queries';
import { peopleKeys } from './queries/people-keys';
import { reportKeys } from './queries/report-keys';
import { searchKeys } from './queries/search-keys';
import { sourceKeys } from './queries/source-keys';
import { tagKeys } from './queries/tag-keys';
import { uploadKeys } from './queries/upload-keys';
import { userQueries } from './queries/user-queries';

/** One message from `/api/live`. */
export interface LiveEvent {
  cursor: string;
  type: string;
  ids: string[];
  /** Only on the audit log's message (see live-audit.ts): the feed's newest cursor. */
  head?: string;
}

/** A document was added, changed or removed: the lists, and each named document (ids are deeplinks). */
const documentChanged = (ids: string[]): QueryKey[] => [documentKeys.lists(), ...ids.map(documentKeys.document)];
/** A document came or went: as above, and My Data's counts. */
const documentCountChanged = (ids: string[]): QueryKey[] => [...documentChanged(ids), libraryKeys.all()];
/** Read state lives in the read-status list and in each card, so both refetch. */
const readStateChanged = (): QueryKey[] => [documentKeys.readStatus(), documentKeys.lists(), documentKeys.details()];
/** Followed sources decide which of My Data's sub-categories are connected. */
const sourcesChanged = (): QueryKey[] => [sourceKeys.all(), libraryKeys.all()];
/** An upload reached its end (or was removed): its status, and the lists that show its document. */
const uploadSettled = (): QueryKey[] => [uploadKeys.statuses(), documentKeys.lists(), libraryKeys.all()];
/**
 * A notebook was made, renamed or deleted (ids: the user, the notebook): the shelf and that
 * notebook's page.
 */
const notebookChanged = ([, notebookId]: string[]): QueryKey[] =>
  notebookId ? [notebookKeys.lists(), notebookKeys.notebook(notebookId)] : [notebookKeys.lists()];
/**
 * A note was made, edited or deleted (ids: the note, its notebook): the note, its notebook's page
 * and the shelf's counts. An open editor decides itself what a newer copy means for its draft.
 */
const noteChanged = ([noteId, notebookId]: string[]): QueryKey[] => [
  notebookKeys.lists(),
  ...(notebookId ? [notebookKeys.notebook(notebookId)] : []),
  ...(noteId ? [notebookKeys.note(noteId)] : []),
];

/**
 * Returns the deeplink a document-tags id names (`{user_id}/{deeplink}`, or
 * `channel:{channel_id}/{deeplink}` for a channel's shared tags), or null.
 */
export function taggedDeeplink(id: string | undefined): string | null {
  const at = id ? id.indexOf('/') : -1;
  return id && at > 0 && at < id.length - 1 ? id.slice(at + 1) : null;
}
/**
 * A document's tags or bookmark changed (the event does not say which tag): that document's tags,
 * and the lists chosen by tag, bookmarks included. Every document's tags when the id is unclear.
 */
const documentTagsChanged = ([id, channelId]: string[]): QueryKey[] => {
  const deeplink = taggedDeeplink(id);
  const keys: QueryKey[] = [deeplink ? tagKeys.document(deeplink) : tagKeys.indexes(), tagKeys.listings()];
  // A channel's shared tags (ids: `channel:{channel_id}/{deeplink}`, the channel): its tag list and filtered documents.
  if (id?.startsWith('channel:') && channelId) keys.push(channelKeys.tags(channelId), channelKeys.items(channelId));
  return keys;
};
/** A tag was renamed or deleted (ids: its user): their tags, every document's, and the lists chosen by tag. */
const tagChanged = (): QueryKey[] => [tagKeys.all(), tagKeys.listings()];

/**
 * A channel's membership, publishing or feeds changed (ids: the channel): the channel lists, that
 * channel's facts and documents, and the comment pages (who sees which comments may have changed).
 */
const channelChanged = ([channelId]: string[]): QueryKey[] => [
  channelKeys.list(),
  ...(channelId ? [channelKeys.channel(channelId), channelKeys.items(channelId)] : []),
  commentKeys.pages(),
];
/** A channel was named or renamed (ids: the organisation's directory): every channel fact and comment page. */
const channelRenamed = (): QueryKey[] => [channelKeys.all(), commentKeys.pages()];
/** A document was shared into a channel or taken out (ids: the item, the channel, the deeplink). */
const channelItemsChanged = ([, channelId]: string[]): QueryKey[] =>
  channelId ? [channelKeys.items(channelId), channelKeys.tags(channelId)] : [channelKeys.itemLists()];
/**
 * A comment was added, edited or deleted (ids: the item, the channel, the deeplink, the comment):
 * that document's thread and count in the channel, and the comment pages.
 */
const commentChanged = ([, channelId, deeplink]: string[]): QueryKey[] => [
  channelId && deeplink ? commentKeys.document(channelId, deeplink) : commentKeys.all(),
  commentKeys.pages(),
];
/** The user starred, unstarred or looked at a channel (ids: the reader, the channel). */
const readerChanged = ([, channelId]: string[]): QueryKey[] =>
  channelId ? [channelKeys.list(), channelKeys.channel(channelId)] : [channelKeys.all()];
/** The user saw a document's comments (ids: the reader, the channel): the channel's comment counts. */
const commentsSeen = ([, channelId]: string[]): QueryKey[] => [channelId ? commentKeys.inChannel(channelId) : commentKeys.all()];

const INVALIDATIONS: Record<string, (ids: string[]) => QueryKey[]> = {
  PreferencesChanged: () => [userQueries.preferences().queryKey],
  FeatureFlagSet: () => [featureQueries.all()],
  ProfileUpdated: () => [userQueries.profile().queryKey],
  OnboardingCompleted: () => [userQueries.status().queryKey, onboardingQueries.all()],
  UserSignedUp: () => [organizationQueries.all()],
  RoleGranted: () => [userQueries.profile().queryKey],
  RoleRevoked: () => [userQueries.profile().queryKey],
  DocumentIngested: documentCountChanged,
  DocumentUpdated: documentChanged,
  DocumentDeleted: documentCountChanged,
  DocumentMarkedRead: readStateChanged,
  DocumentMarkedUnread: readStateChanged,
  SourceFollowed: sourcesChanged,
  SourceUnfollowed: sourcesChanged,
  SourcePriorityChanged: sourcesChanged,
  SourceRegistered: sourcesChanged,
  // A feed took its own title, or a follower asked for it to be fetched now.
  SourceRenamed: sourcesChanged,
  SourceFetchRequested: sourcesChanged,
  // An administrator changed the model server (only administrators hear of it).
  AssistantConfigured: () => [assistantKeys.all()],
  UploadProcessed: uploadSettled,
  UploadFailed: uploadSettled,
  UploadRemoved: uploadSettled,
  NotebookCreated: notebookChanged,
  NotebookRenamed: notebookChanged,
  NotebookDeleted: notebookChanged,
  NoteCreated: noteChanged,
  NoteEdited: noteChanged,
  NoteDeleted: noteChanged,
  TagCreated: () => [tagKeys.userTags()],
  TagRenamed: tagChanged,
  TagDeleted: tagChanged,
  DocumentTagged: documentTagsChanged,
  DocumentUntagged: documentTagsChanged,
  ChannelCreated: channelChanged,
  ChannelPublished: channelChanged,
  ChannelUnpublished: channelChanged,
  MemberAdded: channelChanged,
  MemberRoleChanged: channelChanged,
  MemberRemoved: channelChanged,
  BoardShared: channelChanged,
  BoardUnshared: channelChanged,
  ChannelNameReserved: channelRenamed,
  ChannelRenamed: channelRenamed,
  DocumentShared: channelItemsChanged,
  DocumentUnshared: channelItemsChanged,
  CommentAdded: commentChanged,
  CommentEdited: commentChanged,
  CommentDeleted: commentChanged,
  ChannelStarred: readerChanged,
  ChannelUnstarred: readerChanged,
  ChannelSeen: readerChanged,
  CommentsSeen: commentsSeen,
  // A notification arrived for this user (ids: its id), or they read some: the badge and the list.
  NotificationCreated: () => [notificationKeys.all()],
  NotificationRead: () => [notificationKeys.all()],
  NotificationsAllRead: () => [notificationKeys.all()],
  // The user's contact book changed (ids: the user).
  PersonAdded: () => [peopleKeys.all()],
  ContactsLinked: () => [peopleKeys.all()],
  PersonRenamed: () => [peopleKeys.all()],
  PersonPriorityChanged: () => [peopleKeys.all()],
};

/**
 * Events after which cached searches may be out of date. Searches are cached indefinitely (the
 * spec) and a results page on screen should not reshuffle under the reader, so these only mark
 * them stale: the next time a search is shown it is asked again.
 */
const SEARCH_STALE_AFTER = new Set([
  'DocumentIngested',
  'DocumentUpdated',
  'DocumentDeleted',
  'UploadProcessed',
  'UploadRemoved',
  'SourceFollowed',
  'SourceUnfollowed',
]);

/** Returns whether an event leaves cached searches out of date. */
export const staleSearchesAfter = (event: Pick<LiveEvent, 'type'>): boolean => SEARCH_STALE_AFTER.has(event.type);

/**
 * A custom feed changed (any event whose type starts with `Board`, ids: the feed), or a new
 * document matched it (`BoardMatched`): the feed list and everything cached about that feed.
 * Feeds shared into channels keep their own mapping above (the channel's feeds changed too).
 */
const boardChanged = ([boardId]: string[]): QueryKey[] => [boardKeys.list(), ...(boardId ? [boardKeys.board(boardId)] : [])];

/**
 * The feed's edit events whose names do not start with `Board` (an edit opens with BoardEdited,
 * but each of these may arrive on its own message too).
 */
const BOARD_EDITS = new Set([
  'KeywordIncluded',
  'KeywordExcluded',
  'KeywordRemoved',
  'SourcesFiltered',
  'SecondarySourcesSet',
  'CategoriesFiltered',
  'DateRangeSet',
  'GroupSet',
  'CompaniesSet',
  'AttributesSet',
  'TopicsSet',
  'CurrentTopicSet',
  'FeedTypeSet',
]);

/**
 * A report changed (any event whose type starts with `Report`, ids: the report): the list and
 * that report. `report.progress` (not an event: a hint the worker sends while it writes, with
 * `report_id`) refreshes only that report, whose sections say how far it got.
 */
const reportChanged = ([reportId]: string[]): QueryKey[] => [reportKeys.list(), ...(reportId ? [reportKeys.report(reportId)] : [])];
export const REPORT_PROGRESS = 'report.progress';

/** Returns the query keys an event makes stale; unknown event types change nothing. */
export function keysInvalidatedBy(event: Pick<LiveEvent, 'type'> & { ids?: string[]; report_id?: string }): QueryKey[] {
  const ids = event.ids ?? [];
  if (event.type === REPORT_PROGRESS) return event.report_id ? [reportKeys.report(event.report_id)] : [];
  if (event.type.startsWith('Report')) return reportChanged(ids);
  if (event.type.startsWith('FeedTemplate')) return [boardKeys.templates()];
  const own = INVALIDATIONS[event.type]?.(ids);
  if (event.type.startsWith('Board') || BOARD_EDITS.has(event.type)) return [...(own ?? []), ...boardChanged(ids)];
  return own ?? [];
}

/**
 * Marks the matching queries stale and refetches those on screen, including one whose first
 * fetch is still on its way. React Query lets such a fetch finish and takes its answer as
 * fresh (an invalidation of a query with no data yet joins the running fetch), but the server
 * may have read that answer before the change we were just told about: the list would keep
 * showing the older answer until something else changed. So that fetch is cancelled and made
 * again. Fetches nobody shows (a download, a prefetch) are left alone.
 */
export async function refreshQueries(queryClient: QueryClient, filters: InvalidateQueryFilters = {}): Promise<void> {
  await queryClient.cancelQueries({
    ...filters,
    type: 'active',
    predicate: (query) => query.state.data === undefined && query.state.fetchStatus === 'fetching',
  });
  await queryClient.invalidateQueries(filters);
}

/** Refreshes every query the event affects. */
export async function applyLiveEvent(queryClient: QueryClient, event: LiveEvent & { report_id?: string }): Promise<void> {
  const auditHead = auditHeadOf(event);
  if (auditHead) return noteAuditHead(queryClient, auditHead);
  const quiet = staleSearchesAfter(event)
    ? [queryClient.invalidateQueries({ queryKey: searchKeys.all(), refetchType: 'none' })]
    : [];
  await Promise.all([...keysInvalidatedBy(event).map((queryKey) => refreshQueries(queryClient, { queryKey })), ...quiet]);
}
