/**
 * Report mode from where the user is. On the assistant's page, `?report_id=…` turns it on with
 * that report's info (and off again when the parameter goes); the reports feature links there.
 * In the overlay, a report's own page (`/report/{id}`) does the same while the conversation is
 * empty, so "Ask" beside a report asks over its files; a conversation under way keeps its mode as
 * the user moves on, as it keeps its scope.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { reportInfoQuery } from '../api/report-info-api';
import { AskNeedlChat } from '../chat-context';

export const REPORT_PARAM = 'report_id';

/** The report a location is about: `?report_id=` anywhere, or the full report page `/report/{id}`. */
export function reportIdFromLocation(pathname: string, search: URLSearchParams): string | null {
  const fromQuery = search.get(REPORT_PARAM);
  if (fromQuery) return fromQuery;
  const [, first, id] = pathname.split('/');
  return first === 'report' && id ? decodeURIComponent(id) : null;
}

/** Keeps report mode on for `reportId` (refreshing its info), or off when it is null. */
function useReportMode(reportId: string | null): void {
  const chat = AskNeedlChat.useActorRef();
  const current = AskNeedlChat.useSelector((s) => s.context.report?.id ?? null);
  const info = useQuery({ ...reportInfoQuery(reportId ?? ''), enabled: Boolean(reportId) });

  useEffect(() => {
    if (reportId && info.data) chat.send({ type: current === info.data.id ? 'report.refresh' : 'report.enable', report: info.data });
    if (!reportId && current) chat.send({ type: 'report.disable' });
  }, [chat, reportId, info.data, current]);
}

/** The assistant's page: report mode exactly while the address names a report. */
export function useReportModeFromAddress(): void {
  const location = useLocation();
  useReportMode(reportIdFromLocation(location.pathname, new URLSearchParams(location.search)));
}

/** The overlay: report mode follows the page while the conversation is empty, then stays as it is. */
export function useReportModeBesidePage(): void {
  const location = useLocation();
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const current = AskNeedlChat.useSelector((s) => s.context.report?.id ?? null);
  const here = reportIdFromLocation(location.pathname, new URLSearchParams(location.search));
  useReportMode(empty ? here : current);
}
