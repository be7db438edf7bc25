import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { AskNeedlChat } from '../chat-context';
import { MIN_PRINT_MESSAGES, printChat } from '../print-chat';

/** Returns the spec's source count: '{n} source(s) processing/added'. */
export const reportSourceCount = (n: number) => `${n} source(s) processing/added`;

/**
 * Report mode's header: the report asked about and its sources, a new chat (after a
 * confirmation), the chat's PDF export (the print dialog; from 2 messages on) and leaving
 * report mode.
 */
export function ReportModeBar() {
  const chat = AskNeedlChat.useActorRef();
  const report = AskNeedlChat.useSelector((s) => s.context.report);
  const count = AskNeedlChat.useSelector((s) => s.context.messages.length);
  const [confirming, setConfirming] = useState(false);
  if (!report) return null;
  return (
    <div className="ask-report-bar" role="group" aria-label="Report mode">
      <p className="small">
        Asking about <strong>{report.name}</strong> · {reportSourceCount(report.sources.length + (report.feed_id ? 1 : 0))}
      </p>
      <div className="row">
        <button type="button" className="button button-quiet button-small" disabled={count === 0} onClick={() => setConfirming(true)}>
          New report chat
        </button>
        <button type="button" className="button button-quiet button-small" disabled={count < MIN_PRINT_MESSAGES} onClick={() => printChat()}>
          Export PDF
        </button>
        <button type="button" className="button button-quiet button-small" onClick={() => chat.send({ type: 'report.disable' })}>
          Leave report mode
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Start a new report chat?"
          confirmLabel="Start over"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            chat.send({ type: 'chat.new' });
            setConfirming(false);
          }}
        >
          <p>This report chat is not saved: its questions and answers will be gone.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The first questions in report mode, one per section of the report (the input shows once there are messages). */
export function ReportStarters() {
  const chat = AskNeedlChat.useActorRef();
  const report = AskNeedlChat.useSelector((s) => s.context.report);
  if (!report) return null;
  const ready = report.sources.some((s) => s.status === 'COMPLETED') || Boolean(report.feed_id);
  const questions = (report.sections.length > 0 ? report.sections : ['the main findings']).map((h) => `What does the report say about ${h.toLowerCase()}?`);
  return (
    <div className="ask-welcome">
      <h2>Ask about {report.name}</h2>
      {!ready && <p className="muted">The report’s files are still processing.</p>}
      <ul className="suggestion-list" aria-label="Questions about the report">
        {questions.map((q) => (
          <li key={q}>
            <button type="button" className="button button-quiet" disabled={!ready} onClick={() => chat.send({ type: 'chat.send', prompt: q })}>
              {q}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
