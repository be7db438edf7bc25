/**
 * The assistant's answer as the server sends it (assistant/src/answer.rs), and the chat's own
 * records of a conversation. Server fields keep their snake_case names.
 */

export type AnswerQuality = 'HIGH' | 'LOW' | 'GENERATIVE' | (string & {});
export type AnswerType = 'ANSWER' | 'SEARCH' | (string & {});

export interface HighlightPoint {
  x: number;
  y: number;
}

/** Where a cited passage sits: page, corner points of its box (PDF points), line boxes. */
export interface DocumentHighlight {
  page_number?: number | null;
  coordinates?: HighlightPoint[] | null;
  width?: number | null;
  height?: number | null;
  lines?: [number, number, number, number][] | null;
  /** Older shapes name these `page` and `box`. */
  page?: number | null;
  box?: number[] | null;
}

/** A numbered source of an answer; `retrieved_results[n - 1]` is `[n]`. */
export interface Citation {
  id: number;
  document_id: string;
  access_key?: string | null;
  source: string;
  category_tab?: string | null;
  channel_id?: string | null;
  mime_type?: string | null;
  document_highlight?: DocumentHighlight | null;
  url?: string | null;
  needl_document_link?: string | null;
  title_label: string;
  source_label: string;
  /** Seconds since the epoch. */
  unix?: number | null;
  content_only?: boolean;
  /** Start and end character pairs inside `context`. */
  highlight_indexes?: [number, number][] | null;
  context?: string | null;
  /** Search mode: HTML snippets whose only markup is `<em>`, and where each sits. */
  highlights?: string[] | null;
  highlighted_coordinates?: DocumentHighlight[] | null;
}

export interface AnswerSentence {
  sentence: string;
  citations: number[];
  /** Set on a sentence stating a value computed from its cited inputs rather than quoted. */
  computed?: Computation;
}

/** A computed value: the operation, each input as its cited passage writes it, the result. */
export interface Computation {
  operation: 'change' | 'decrease' | 'percentage_change' | 'average' | 'sum' | 'share' | 'ratio';
  inputs: { label: string; period: string; written: string; number: number; citation: number }[];
  value: number;
  shown: string;
}

/** The DONE event's data. */
export interface AnswerData {
  answer_type: AnswerType;
  generated_answer: { answer: string; sentences: AnswerSentence[] };
  retrieved_results: Citation[];
  followup_questions: string[];
  answer_quality: AnswerQuality;
  answer_quality_message?: string | null;
  pro: boolean;
  message_id?: string | null;
  session_id?: string | null;
  /** Set on answers in report mode: they are not saved as a session. */
  report_chat?: boolean;
}

export interface UserMessage {
  type: 'user';
  id: string;
  botMessageId: string;
  prompt: string;
  attachments?: { id: string; name: string }[];
}

export interface IntermediateStep {
  text: string;
  loading: boolean;
}

export interface BotMessage {
  type: 'bot';
  id: string;
  prompt: string;
  /** The final answer, once DONE arrived. */
  data: AnswerData | null;
  /** The answer text so far, while it streams. */
  streamingAnswer: string;
  intermediateSteps: IntermediateStep[];
  generatingStopped: boolean;
  error: boolean;
}

export type ChatMessage = UserMessage | BotMessage;

/** What a question is asked over. */
export interface AskScope {
  /** `feed` or `document`. */
  type: 'feed' | 'document';
  /** home, a feed id, a document id, or needl_universe for web search. */
  id: string;
  board_id?: string;
  channel_id?: string;
  document_ids?: string[];
}

/** A report's source as report mode counts it: PROCESSING, COMPLETED or FAILED. */
export interface ReportSource {
  id: string;
  name: string;
  status: string;
}

/**
 * Report mode: questions go to one report's files (`report_id`), the answers are report chat
 * and no session is saved.
 */
export interface ReportInfo {
  id: string;
  name: string;
  feed_id: string | null;
  sources: ReportSource[];
  /** The report's section headings, offered as first questions (the input shows once there are messages). */
  sections: string[];
}

export const HOME_SCOPE_ID = 'home';
export const WEB_SCOPE_ID = 'needl_universe';
