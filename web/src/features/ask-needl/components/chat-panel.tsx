import { Spinner } from '../../../components/ui/spinner';
import { AskNeedlChat } from '../chat-context';
import { isRestoring } from '../chat.machine';
import { DROP_FILES } from '../messages';
import { AnswerModeNote } from './answer-mode-note';
import { useChatAttachments } from './chat-attachments';
import { ChatInput } from './chat-input';
import { ChatToolbar } from './chat-toolbar';
import { MessageList } from './message-list';
import { ReportModeBar, ReportStarters } from './report-mode-bar';
import { Suggestions } from './suggestions';

/**
 * The chat screen: controls, the conversation (or, empty, a welcome and suggestions), the
 * attachments and the input. Files dropped anywhere on it are attached, where the rules allow.
 */
export function ChatPanel({ historyHref }: { historyHref?: string }) {
  const empty = AskNeedlChat.useSelector((s) => s.context.messages.length === 0);
  const restoring = AskNeedlChat.useSelector(isRestoring);
  const webSearch = AskNeedlChat.useSelector((s) => s.context.webSearch);
  const reportMode = AskNeedlChat.useSelector((s) => s.context.report !== null);
  const reportReady = AskNeedlChat.useSelector((s) => !s.context.report || s.context.report.feed_id !== null || s.context.report.sources.some((f) => f.status === 'COMPLETED'));
  const attachments = useChatAttachments();
  return (
    <section className="ask-panel" aria-label="AskNeedl" data-testid="ask-panel" {...attachments?.dropHandlers}>
      {attachments?.dragging && (
        <div className="ask-drop" aria-hidden="true">
          {DROP_FILES}
        </div>
      )}
      <ChatToolbar historyHref={historyHref} />
      <AnswerModeNote />
      <ReportModeBar />
      {restoring ? (
        <Spinner label="Loading your last conversation" />
      ) : empty && reportMode ? (
        <ReportStarters />
      ) : empty ? (
        <div className="ask-welcome">
          <h2>What would you like to know?</h2>
          <p className="muted">
            {webSearch ? 'Answers come from the public web, with numbered sources.' : 'Ask about your data; answers cite their sources with numbers.'}
          </p>
          <Suggestions />
        </div>
      ) : (
        <MessageList />
      )}
      {!reportMode && attachments?.area}
      {/* In report mode the input shows once there are messages; it needs a ready source. */}
      {!(reportMode && empty) && <ChatInput blocked={Boolean(attachments?.blocked) || !reportReady} extra={reportMode ? undefined : attachments?.button} />}
    </section>
  );
}
