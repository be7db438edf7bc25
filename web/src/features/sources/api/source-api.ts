/** Calls and queries for followed sources: RSS feeds, their priority, follow and unfollow. */
import { api } from '../../../lib/api';
import type { Priority, RssSource, RssSourceList } from '../../../lib/queries/source-queries';

export { sourceQueries, type Priority, type RssSource, type RssSourceList } from '../../../lib/queries/source-queries';

export const PRIORITIES: ReadonlyArray<{ value: Priority; label: string }> = [
  { value: 'HIGH', label: 'High' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'LOW', label: 'Low' },
];

export interface AddRssInput {
  url: string;
  label?: string;
}

export const addRssFeed = (input: AddRssInput) => api.post<RssSource>('/connect/rss', { body: input });

export const updateRssPriority = (sourceId: string, priority: Priority) =>
  api.put<RssSource>(`/source/rss/${encodeURIComponent(sourceId)}`, { body: { priority } });

export const updateRssPriorities = (sourceIds: string[], priority: Priority) =>
  api.put<RssSourceList>('/source/rss/priority', { body: { source_ids: sourceIds, priority } });

export { unfollowFeed as unfollowSource } from '../../../lib/queries/source-queries';
