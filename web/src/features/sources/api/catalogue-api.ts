/**
 * Calls and queries for the public source catalogue: the sources this instance offers to follow
 * by key (exchange filings, annual reports, conference calls, ...), with which the user follows.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { sourceKeys } from '../../../lib/queries/source-keys';

const publicSourceSchema = z.object({
  key: z.string(),
  title: z.string(),
  /** `Indian Capital Markets`, `US Capital Markets`, or null for none. */
  group: z.string().nullable(),
  /** Whether the instance knows a feed to fetch for it; without one, following brings nothing in yet. */
  fetchable: z.boolean(),
  following: z.boolean(),
});

export type PublicSource = z.infer<typeof publicSourceSchema>;

const catalogueSchema = z.object({ results: z.array(publicSourceSchema) });

export type Catalogue = z.infer<typeof catalogueSchema>;

/**
 * Keys the spec's catalogue also names that are not public sources: apps connected under Apps
 * (mail, chats, drives, clipped reports) and what Needl itself holds (Custom URL, Notebooks).
 * They are not offered for following here.
 */
const NOT_PUBLIC_SOURCES: ReadonlySet<string> = new Set([
  'gmail',
  'outlook',
  'whatsapp',
  'telegram',
  'googledrive',
  'onedrive',
  'clipped_reports',
  'twitter',
  'linkedin',
  'websitecrawl',
  'needl_notebooks',
]);

/** Most keys one `POST /connect/public/multiple` takes. */
export const MAX_FOLLOW_AT_ONCE = 100;

export const catalogueQueries = {
  /** The catalogue changes only when the operator restarts with another; what is followed, on each follow. */
  list: () =>
    queryOptions({
      queryKey: sourceKeys.catalogue(),
      queryFn: async ({ signal }) => {
        const catalogue = catalogueSchema.parse(await api.get<unknown>('/source/public', { signal }));
        return { results: catalogue.results.filter((source) => !NOT_PUBLIC_SOURCES.has(source.key)) };
      },
      staleTime: 15_000,
    }),
};

/** Follows the catalogue entry `key`. */
export const followPublic = (key: string) => api.post<unknown>('/connect/public', { body: { key } });

/** Stops following the catalogue entry `key`. */
export const unfollowPublic = (key: string) => api.post<unknown>('/connect/public?delink=true', { body: { key } });

/** Follows 1 to 100 catalogue entries at once. */
export const followPublicMany = (keys: string[]) => api.post<unknown>('/connect/public/multiple', { body: { keys } });
