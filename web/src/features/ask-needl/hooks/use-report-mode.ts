/**
 * Report mode from the address: `?report_id=…` on the assistant's page turns it on with that
 * report's info (and off again when the parameter goes). The reports feature links here.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { reportInfoQuery } from '../api/report-info-api';
import { AskNeedlChat } from '../chat-context';

export const REPORT_PARAM = 'report_id';

export function useReportModeFromAddress(): void {
  const [search] = useSearchParams();
  const reportId = search.get(REPORT_PARAM);
  const chat = AskNeedlChat.useActorRef();
  const current = AskNeedlChat.useSelector((s) => s.context.report?.id ?? null);
  const info = useQuery({ ...reportInfoQuery(reportId ?? ''), enabled: Boolean(reportId) });

  useEffect(() => {
    if (reportId && info.data) chat.send({ type: current === info.data.id ? 'report.refresh' : 'report.enable', report: info.data });
    if (!reportId && current) chat.send({ type: 'report.disable' });
  }, [chat, reportId, info.data, current]);
}
