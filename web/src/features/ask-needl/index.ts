/**
 * AskNeedl feature: the assistant's chat — the conversation machine (`chat.machine.ts`: ask,
 * stream, stop, new chat, web search and PRO, the thinking phrases, saving the session), the
 * answer stream read as server-sent events over POST (`sse.ts`), answers as sanitised markdown
 * with citation buttons, popovers and previews at the cited passage (`citations.ts`), search-
 * mode results, copy, feedback, follow-ups, save to note; the full page (/ask-needl/full), the
 * overlay body, the floating Ask button and the history page (/ask-needl/history?sessionId=).
 * The conversation lives in `AskNeedlProvider`, above the pages. Attachments come from the app,
 * which joins this feature with uploads through `AskUploaderContext`.
 * Report mode (`?report_id=` on the full page): questions go with the report's id, its answers
 * are never saved as sessions, the input waits for the first question, the chat prints as a PDF.
 * It owns the calls under /ml/ask-needl and saves notes through the notebook routes.
 * The full page, the history page and the overlay body are a second entry, `pages.ts`, which the
 * app loads on demand; the provider and the Ask button stay in this one.
 * Depends on: src/lib, src/components/ui.
 */
export { AskButton } from './components/ask-button';
export { AskNeedlProvider } from './components/ask-needl-provider';
/** The app forgets the tab's last session when its user signs out or the session ends. */
export { forgetLastSession } from './last-session';
export { ASK_UPLOAD_SOURCE, AskUploaderContext, type AskUploader, type Attachment } from './attachments';
