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
  /**
   * `source` is followed here; `app` is one of the apps (mail, chats, drives, clipped reports) or
   * Needl's own parts (Custom URL, Notebooks) the catalogue also names, connected under Apps.
   */
  kind: z.enum(['source', 'app']),
  /** Whether the instance knows a feed to fetch for it; without one, following brings nothing in yet. */
  fetchable: z.boolean(),
  following: z.boolean(),
});

export type PublicSource = z.infer<typeof publicSourceSchema>;

const catalogueSchema = z.object({ results: z.array(publicSourceSchema) });

export type Catalogue = z.infer<typeof catalogueSchema>;

/** Most keys one `POST /connect/public/multiple` takes. */
export const MAX_FOLLOW_AT_ONCE = 100;

export const catalogueQueries = {
  /** The catalogue changes only when the operator restarts with another; what is followed, on each follow. */
  list: () =>
    queryOptions({
      queryKey: sourceKeys.catalogue(),
      queryFn: async ({ signal }) => {
        const catalogue = catalogueSchema.parse(await api.get<unknown>('/source/public', { signal }));
        // Only sources are followed here; the server marks the apps it also lists.
        return { results: catalogue.results.filter((source) => source.kind === 'source') };
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
