/**
 * Calls for the assistant: the answer stream (`POST /ml/ask-needl`, server-sent events read
 * with fetch so it can be a POST and be aborted), saved sessions, feedback, the suggested
 * questions, and saving a conversation as a note in the assistant's notebook. Query keys go
 * from general to specific; nothing here touches the UI.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { readEventStream, type StreamEvent } from '../sse';
import type { ChatMessage } from '../types';

/** The spec's request for an answer. */
export interface AskRequest {
  prompt: string;
  stream: true;
  timezone: string;
  pro: boolean;
  source: string;
  session_id: string | null;
  document_id: string[];
  board_id?: string;
  channel_id?: string;
  /** `ask` for an answer, `search` for matching documents. */
  mode: 'ask' | 'search';
  web_search: boolean;
  /** Report mode: the report whose files answer (report chat, never saved as a session). */
  report_id?: string;
}

/** What the answer stream's headers name before its first event (none in a report chat). */
export interface StreamStart {
  sessionId: string | null;
  messageId: string | null;
}

/**
 * Asks a question and reads its events until the stream ends or `signal` aborts. `onStart` hears
 * the session and message ids from the headers as soon as the answer starts, so the session is
 * known even if the answer never finishes here.
 */
export async function askNeedl(
  request: AskRequest,
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
  onStart: (start: StreamStart) => void = () => {},
): Promise<void> {
  const response = await api.postStream('/ml/ask-needl', { body: request, signal });
  if (!response.body) throw new Error('the answer stream has no body');
  onStart({ sessionId: response.headers.get('x-session-id') || null, messageId: response.headers.get('x-message-id') || null });
  await readEventStream(response.body, onEvent, signal);
}

/** What a saved session keeps (the spec's saved-session state). */
export interface SavedSessionState {
  currentFeedOrDocumentId: string;
  searchWithin: string;
  messages: ChatMessage[];
  attachments: string[];
  attachmentsFeedId: string | null;
  metadata: { type: string; board_id?: string; channel_id?: string; document_id?: string };
  settings: { pro: boolean };
}

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: string | null;
}

export interface SavedSession extends SessionSummary {
  state: Partial<SavedSessionState> | null;
  /** The server's whole record, for the turns it keeps itself. */
  raw: unknown;
}

type Raw = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** Reads one session of whatever envelope the server used (`{id}`, `{session_id}`, `{sessionId}`). */
function readSession(raw: Raw): SavedSession | null {
  const id = str(raw.id) ?? str(raw.session_id) ?? str(raw.sessionId);
  if (!id) return null;
  return {
    id,
    title: str(raw.title) ?? 'Untitled conversation',
    updatedAt: str(raw.updated_at) ?? str(raw.updatedAt) ?? str(raw.created_at) ?? null,
    state: (raw.state as Partial<SavedSessionState> | undefined) ?? null,
    raw,
  };
}

/** Returns the list inside an answer: a bare array, or under `sessions`, `results` or `data`. */
function listOf(answer: unknown): Raw[] {
  if (Array.isArray(answer)) return answer as Raw[];
  const record = (answer ?? {}) as Raw;
  for (const key of ['sessions', 'results', 'data']) {
    const value = record[key];
    if (Array.isArray(value)) return value as Raw[];
    if (value && typeof value === 'object' && Array.isArray((value as Raw).sessions)) return (value as Raw).sessions as Raw[];
  }
  return [];
}

function oneOf(answer: unknown): Raw {
  const record = (answer ?? {}) as Raw;
  for (const key of ['session', 'results', 'data']) {
    const value = record[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Raw;
  }
  return record;
}

export const fetchSessions = async (q: string, signal?: AbortSignal): Promise<SessionSummary[]> => {
  const query = q ? `?q=${encodeURIComponent(q)}` : '';
  return listOf(await api.get<unknown>(`/ml/ask-needl/sessions${query}`, { signal }))
    .map(readSession)
    .filter((s): s is SavedSession => s !== null);
};

export const fetchSession = async (id: string, signal?: AbortSignal): Promise<SavedSession> => {
  const session = readSession({ id, ...oneOf(await api.get<unknown>(`/ml/ask-needl/sessions/${encodeURIComponent(id)}`, { signal })) });
  if (!session) throw new Error('the session answer has no id');
  return session;
};

export const saveSession = (id: string, title: string, state: SavedSessionState) =>
  api.put<unknown>(`/ml/ask-needl/sessions/${encodeURIComponent(id)}`, { body: { title, state } });

export type Feedback = 'CORRECT' | 'INCORRECT';

export const sendFeedback = (messageId: string, feedback: Feedback) =>
  api.post<unknown>('/ml/ask-needl/feedback', { body: { feedback, message_id: messageId } });

export interface Suggestion {
  question: string;
  icon?: string | null;
}

export interface Suggestions {
  all: Suggestion[];
  document: Suggestion[];
  feed: Suggestion[];
}

const suggestionList = (value: unknown): Suggestion[] =>
  Array.isArray(value)
    ? value
        .map((item) => (typeof item === 'string' ? { question: item } : (item as Suggestion)))
        .filter((item) => item && typeof item.question === 'string')
    : [];

export const fetchSuggestions = async (signal?: AbortSignal): Promise<Suggestions> => {
  const answer = (await api.get<unknown>('/ml/ask-needl/messaging', { signal })) as Raw;
  const results = ((answer?.results ?? answer?.data ?? answer) ?? {}) as Raw;
  return { all: suggestionList(results.all), document: suggestionList(results.document), feed: suggestionList(results.feed) };
};

export const askNeedlKeys = {
  all: () => ['ask-needl'] as const,
  sessions: () => [...askNeedlKeys.all(), 'sessions'] as const,
  sessionList: (q: string) => [...askNeedlKeys.sessions(), 'list', q] as const,
  session: (id: string) => [...askNeedlKeys.sessions(), 'detail', id] as const,
  suggestions: () => [...askNeedlKeys.all(), 'messaging'] as const,
};

export const askNeedlQueries = {
  sessions: (q: string) =>
    queryOptions({ queryKey: askNeedlKeys.sessionList(q), queryFn: ({ signal }) => fetchSessions(q, signal) }),
  session: (id: string) =>
    queryOptions({ queryKey: askNeedlKeys.session(id), queryFn: ({ signal }) => fetchSession(id, signal), meta: { toast: false } }),
  /** Never cached, as the spec says. */
  suggestions: () =>
    queryOptions({
      queryKey: askNeedlKeys.suggestions(),
      queryFn: ({ signal }) => fetchSuggestions(signal),
      gcTime: 0,
      staleTime: 0,
      meta: { toast: false },
    }),
};

/** A turn of a conversation as a note keeps it. */
export interface ConversationTurn {
  prompt: string;
  answer: string;
  /** `label: link` strings, as the spec's simple form has them. */
  citations: string[];
}

type Node = Record<string, unknown>;
const text = (value: string): Node => ({ type: 'text', text: value });
const paragraph = (value: string): Node => (value ? { type: 'paragraph', content: [text(value)] } : { type: 'paragraph' });

/** Returns the rich-text (Tiptap JSON) document of a conversation: each question, answer and sources. */
export function conversationDocument(turns: ConversationTurn[]): Node {
  const content: Node[] = [];
  turns.forEach((turn) => {
    content.push({ type: 'heading', attrs: { level: 3 }, content: [text(turn.prompt)] });
    turn.answer.split(/\n{2,}/).forEach((block) => content.push(paragraph(block.trim())));
    if (turn.citations.length > 0) {
      content.push({
        type: 'bulletList',
        content: turn.citations.map((c) => ({ type: 'listItem', content: [paragraph(c)] })),
      });
    }
  });
  return { type: 'doc', content };
}

/** Saves a conversation as a note in the assistant's notebook (made on first use). */
export async function saveConversationToNote(name: string, turns: ConversationTurn[]): Promise<void> {
  const notebook = (await api.put<{ results: { notebookId: string } }>('/notebook?botNotebook=true', { body: { name: 'AskNeedl' } })).results;
  await api.put<unknown>(`/note/create/${encodeURIComponent(notebook.notebookId)}`, {
    body: { name: name.slice(0, 100) || 'AskNeedl conversation', body: conversationDocument(turns) },
  });
}
