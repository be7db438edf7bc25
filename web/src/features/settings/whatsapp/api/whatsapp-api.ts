/**
 * Verifying the profile's WhatsApp number by a six-digit code (the pulse variant): its status,
 * asking for a code (sent over WhatsApp, or to the administrators' outbox while no messaging
 * provider is set up) and trying one. Changing the number on the profile unverifies it.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../../lib/api';
import { userQueries } from '../../../../lib/queries/user-queries';

const statusSchema = z.object({
  /** The profile's WhatsApp number. */
  number: z.string().nullable(),
  /** Whether that exact number was verified by code. */
  verified: z.boolean(),
  /** Whether this user must verify it (otherwise it is optional). */
  required: z.boolean(),
  /** When the outstanding code was sent, if one is outstanding. */
  code_sent_at: z.string().nullable(),
  /** Seconds to wait before another code may be asked for. */
  resend_after_seconds: z.number(),
});

const codeSentSchema = z.object({ sent_to: z.string(), expires_at: z.string() });
const verifiedSchema = z.object({ verified: z.boolean(), number: z.string() });

export type WhatsappStatus = z.infer<typeof statusSchema>;
export type CodeSent = z.infer<typeof codeSentSchema>;

/** The server's refusals, by code. */
export const WHATSAPP_REFUSALS = {
  numberMissing: 'whatsapp_number_missing',
  alreadyVerified: 'whatsapp_already_verified',
  tooManyCodes: 'too_many_codes',
  wrongCode: 'wrong_code',
  codeExpired: 'code_expired',
  noCode: 'no_code',
} as const;

/** How many digits a code has. */
export const CODE_LENGTH = 6;

export const whatsappQueries = {
  /** Under the user's keys: a profile change (the number) invalidates it with the user's data. */
  all: () => [...userQueries.all(), 'whatsapp'] as const,
  status: () =>
    queryOptions({
      queryKey: [...whatsappQueries.all(), 'status'] as const,
      queryFn: async ({ signal }) => statusSchema.parse(await api.get<unknown>('/user/whatsapp/status', { signal })),
      meta: { toast: false },
    }),
};

/** Sends a new code to the profile's number. Refusals: see `WHATSAPP_REFUSALS` (429 carries `retryAfter`). */
export const sendWhatsappCode = async () => codeSentSchema.parse(await api.post<unknown>('/user/whatsapp/otp', { body: {} }));

/** Tries `code` against the outstanding one; resolves once the number is verified. */
export const verifyWhatsappCode = async (code: string) =>
  verifiedSchema.parse(await api.post<unknown>('/user/whatsapp/verify', { body: { code } }));
