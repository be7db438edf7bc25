/**
 * What each pushed live event means for the cache: "sockets notify, queries fetch". The socket
 * tells us what changed; the affected queries are invalidated and refetch if someone shows them.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { documentKeys } from './queries/document-keys';
import { featureQueries } from './queries/feature-queries';
import { onboardingQueries, organizationQueries } from './queries/organization-queries';
import { sourceKeys } from './queries/source-keys';
import { userQueries } from './queries/user-queries';

/** One message from `/api/live`. */
export interface LiveEvent {
  cursor: string;
  type: string;
  ids: string[];
}

/** A document was added, changed or removed: the lists, and each named document (ids are deeplinks). */
const documentChanged = (ids: string[]): QueryKey[] => [documentKeys.lists(), ...ids.map(documentKeys.document)];
/** Read state lives in the read-status list and in each card, so both refetch. */
const readStateChanged = (): QueryKey[] => [documentKeys.readStatus(), documentKeys.lists(), documentKeys.details()];
const sourcesChanged = (): QueryKey[] => [sourceKeys.all()];

const INVALIDATIONS: Record<string, (ids: string[]) => QueryKey[]> = {
  PreferencesChanged: () => [userQueries.preferences().queryKey],
  FeatureFlagSet: () => [featureQueries.all()],
  ProfileUpdated: () => [userQueries.profile().queryKey],
  OnboardingCompleted: () => [userQueries.status().queryKey, onboardingQueries.all()],
  UserSignedUp: () => [organizationQueries.all()],
  RoleGranted: () => [userQueries.profile().queryKey],
  RoleRevoked: () => [userQueries.profile().queryKey],
  DocumentIngested: documentChanged,
  DocumentUpdated: documentChanged,
  DocumentDeleted: documentChanged,
  DocumentMarkedRead: readStateChanged,
  DocumentMarkedUnread: readStateChanged,
  SourceFollowed: sourcesChanged,
  SourceUnfollowed: sourcesChanged,
  SourcePriorityChanged: sourcesChanged,
  SourceRegistered: sourcesChanged,
};

/** Returns the query keys an event makes stale; unknown event types change nothing. */
export function keysInvalidatedBy(event: Pick<LiveEvent, 'type'> & { ids?: string[] }): QueryKey[] {
  return INVALIDATIONS[event.type]?.(event.ids ?? []) ?? [];
}

/** Invalidates every query the event affects. */
export async function applyLiveEvent(queryClient: QueryClient, event: LiveEvent): Promise<void> {
  await Promise.all(keysInvalidatedBy(event).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
