import { useMutation } from '@tanstack/react-query';
import type { ToastMeta } from '../../../lib/query-client';
import { saveBlob } from '../../../lib/save-blob';
import { fetchExport } from '../api/audit-api';
import type { AuditFilters } from '../audit-filters';
import { exportFileName } from '../audit-format';

/**
 * Downloads the NDJSON export of the events that match `filters`: fetched with the token (a
 * plain link would lack it) and saved under the server's file name. A failure is shown inline.
 */
export function useAuditExport(filters: AuditFilters) {
  return useMutation({
    mutationFn: async () => {
      const file = await fetchExport(filters);
      saveBlob(file.blob, file.fileName ?? exportFileName());
    },
    meta: { toast: false } satisfies ToastMeta,
  });
}
