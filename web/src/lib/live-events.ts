/**
 * What each pushed live event means for the cache: "sockets notify, queries fetch". The socket
 * tells us what changed; the affected queries are invalidated and refetch if someone shows them.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { featureQueries } from './queries/feature-queries';
import { onboardingQueries, organizationQueries } from './queries/organization-queries';
import { userQueries } from './queries/user-queries';

/** One message from `/api/live`. */
export interface LiveEvent {
  cursor: string;
  type: string;
  ids: string[];
}

const INVALIDATIONS: Record<string, () => QueryKey[]> = {
  PreferencesChanged: () => [userQueries.preferences().queryKey],
  FeatureFlagSet: () => [featureQueries.all()],
  ProfileUpdated: () => [userQueries.profile().queryKey],
  OnboardingCompleted: () => [userQueries.status().queryKey, onboardingQueries.all()],
  UserSignedUp: () => [organizationQueries.all()],
  RoleGranted: () => [userQueries.profile().queryKey],
  RoleRevoked: () => [userQueries.profile().queryKey],
};

/** Returns the query keys an event makes stale; unknown event types change nothing. */
export function keysInvalidatedBy(event: Pick<LiveEvent, 'type'>): QueryKey[] {
  return INVALIDATIONS[event.type]?.() ?? [];
}

/** Invalidates every query the event affects. */
export async function applyLiveEvent(queryClient: QueryClient, event: LiveEvent): Promise<void> {
  await Promise.all(keysInvalidatedBy(event).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
