import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { auditKeys } from '../../../lib/queries/audit-keys';
import type { ToastMeta } from '../../../lib/query-client';
import { auditQueries, createCheckpoint, verifyChain } from '../api/audit-api';

const quiet = { toast: false } satisfies ToastMeta;

/**
 * The hash chain's status with its checkpoints, and the two things to do about it: verify the
 * whole chain again (its answer replaces the status) and sign a checkpoint at the head (the
 * status is asked again, listing it).
 */
export function useChain() {
  const queryClient = useQueryClient();
  const chain = useQuery({ ...auditQueries.chain(), meta: quiet });
  const verify = useMutation({
    mutationFn: verifyChain,
    meta: quiet,
    onSuccess: (status) => queryClient.setQueryData(auditKeys.chain(), status),
  });
  const checkpoint = useMutation({
    mutationFn: createCheckpoint,
    meta: quiet,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.chain() }),
  });
  return { chain, verify, checkpoint };
}
