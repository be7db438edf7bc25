/**
 * The WhatsApp verification flow's server side: the status, asking for a code and trying one.
 * A code asked for or refused refetches the status (when a code is outstanding, when another may
 * be asked for); a throttled ask waits out its `Retry-After`. Verified, it fires the app's
 * `whatsapp number verified` event and the toast says so.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { announceWhatsappVerified } from '../../../../lib/app-events';
import { isApiError } from '../../../../lib/api-client';
import type { ToastMeta } from '../../../../lib/query-client';
import { sendWhatsappCode, verifyWhatsappCode, WHATSAPP_REFUSALS, whatsappQueries, type WhatsappStatus } from '../api/whatsapp-api';
import { useCountdown } from './use-countdown';

export const WHATSAPP_VERIFIED = 'Your WhatsApp number is verified';

/** Refusals after which the status the page shows is out of date. */
const STALE_AFTER = new Set<string>([
  WHATSAPP_REFUSALS.numberMissing,
  WHATSAPP_REFUSALS.alreadyVerified,
  WHATSAPP_REFUSALS.codeExpired,
  WHATSAPP_REFUSALS.noCode,
]);

export function useWhatsappVerification({ onVerified }: { onVerified: () => void }) {
  const queryClient = useQueryClient();
  const status = useQuery(whatsappQueries.status());
  const [throttledUntil, setThrottledUntil] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: whatsappQueries.all() });
  const refreshIfStale = (error: Error) => {
    if (isApiError(error) && STALE_AFTER.has(error.code)) void refresh();
  };

  const send = useMutation({
    mutationFn: sendWhatsappCode,
    meta: { toast: false } satisfies ToastMeta,
    // Pending until the status says when another code may be asked for.
    onSuccess: refresh,
    onError: (error) => {
      if (isApiError(error) && error.retryAfter !== null) setThrottledUntil(Date.now() + error.retryAfter * 1000);
      refreshIfStale(error);
    },
  });

  const verify = useMutation({
    mutationFn: verifyWhatsappCode,
    meta: { toast: false, successToast: WHATSAPP_VERIFIED } satisfies ToastMeta,
    onSuccess: (answer) => {
      queryClient.setQueryData<WhatsappStatus>(whatsappQueries.status().queryKey, (old) =>
        old ? { ...old, number: answer.number, verified: true, code_sent_at: null } : old,
      );
      announceWhatsappVerified(answer.number);
      onVerified();
    },
    onError: refreshIfStale,
  });

  const statusDeadline = status.data ? status.dataUpdatedAt + status.data.resend_after_seconds * 1000 : 0;
  const deadline = Math.max(statusDeadline, throttledUntil);
  const resendIn = useCountdown(deadline > 0 ? deadline : null);

  return {
    status,
    send,
    verify,
    /** Seconds before another code may be asked for (0: now). */
    resendIn,
    /** Whether a code is outstanding, so the code form is shown. */
    codeOutstanding: Boolean(status.data?.code_sent_at) || send.isSuccess,
  };
}
