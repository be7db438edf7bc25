/**
 * The outbox (administrators): the messages the server would have sent through a messaging
 * provider, such as WhatsApp verification codes, kept for an administrator to pass on while no
 * provider is set up.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { adminQueries } from './account-api';

const outboxMessageSchema = z.object({
  id: z.string(),
  /** How it would have gone out: `whatsapp`. */
  channel: z.string(),
  recipient: z.string(),
  body: z.string(),
  created_at: z.string(),
});

export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** How many of the newest messages the page lists. */
export const OUTBOX_LIMIT = 50;

/** A code works for ten minutes: the page looks for new messages this often while it is open. */
export const OUTBOX_REFRESH_MS = 15_000;

export const outboxQueries = {
  /** The newest messages first. */
  messages: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'outbox'] as const,
      queryFn: async ({ signal }) =>
        z
          .object({ messages: z.array(outboxMessageSchema) })
          .parse(await api.get<unknown>(`/admin/outbox?limit=${OUTBOX_LIMIT}`, { signal })).messages,
      refetchInterval: OUTBOX_REFRESH_MS,
      meta: { toast: false },
    }),
};
