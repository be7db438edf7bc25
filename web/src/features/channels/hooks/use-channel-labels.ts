import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { channelQueries, CREATE_GROUP } from '../api/channel-api';

/**
 * Returns names for path segments that are group ids (from the cached group list), so the
 * breadcrumbs and the page title name a group rather than showing its id.
 */
export function useChannelLabels(): Readonly<Record<string, string>> {
  const channels = useQuery({ ...channelQueries.list(), meta: { toast: false } }).data;
  return useMemo(() => {
    const labels: Record<string, string> = { [CREATE_GROUP]: 'Create group' };
    channels?.forEach((c) => (labels[c.id] = c.name));
    return labels;
  }, [channels]);
}
