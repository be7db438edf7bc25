/** The user's storage: how much their uploads take against their quota, by file type. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { userQueries } from '../../../lib/queries/user-queries';

const storageSchema = z.object({
  used_bytes: z.number().nonnegative(),
  /** Null when the instance sets no quota. */
  quota_bytes: z.number().nonnegative().nullable(),
  file_count: z.number().int().nonnegative(),
  by_type: z.array(z.object({ mime_type: z.string(), bytes: z.number().nonnegative(), count: z.number().int().nonnegative() })),
});

export type StorageUsage = z.infer<typeof storageSchema>;

export const storageQueries = {
  usage: () =>
    queryOptions({
      queryKey: [...userQueries.all(), 'storage'] as const,
      queryFn: async ({ signal }) => storageSchema.parse(await api.get<unknown>('/user/storage', { signal })),
      meta: { toast: false },
    }),
};
