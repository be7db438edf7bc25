/** The audit log's page addresses. */
import type { HistoryPoint } from './api/audit-api';

export const AUDIT_PATH = '/settings/audit';
export const HISTORY_PATH = '/settings/audit/history';

/** Returns the address of an aggregate's history, opened at `point` when given. */
export function historyHref(type: string, id: string, point?: HistoryPoint): string {
  const params = new URLSearchParams({ type, id });
  if (point && 'at' in point) params.set('at', point.at);
  if (point && 'time' in point) params.set('time', point.time);
  return `${HISTORY_PATH}?${params.toString()}`;
}
