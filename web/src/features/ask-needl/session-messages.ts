/**
 * A saved session's conversation as the chat shows it. The session may hold the chat's own
 * messages (saved with PUT) or only the server's record of its turns (question, answer data,
 * how it ended); either becomes user and bot messages.
 */
import type { SavedSession } from './api/ask-api';
import type { LoadedSession } from './chat.machine';
import type { AnswerData, AskScope, BotMessage, ChatMessage } from './types';

type Raw = Record<string, unknown>;

const isChatMessage = (m: unknown): m is ChatMessage =>
  Boolean(m && typeof m === 'object' && ((m as Raw).type === 'user' || (m as Raw).type === 'bot') && typeof (m as Raw).id === 'string');

const answerOf = (turn: Raw): AnswerData | null => {
  const value = turn.answer ?? turn.data ?? turn.response;
  if (value && typeof value === 'object' && 'generated_answer' in (value as Raw)) return value as AnswerData;
  if (typeof value === 'string') {
    return {
      answer_type: 'ANSWER',
      generated_answer: { answer: value, sentences: [] },
      retrieved_results: Array.isArray(turn.citations) ? (turn.citations as AnswerData['retrieved_results']) : [],
      followup_questions: [],
      answer_quality: 'HIGH',
      pro: false,
    };
  }
  return null;
};

/** Fills what a stored message may lack (a copy saved by another client). */
function complete(message: ChatMessage): ChatMessage {
  if (message.type === 'user') return { ...message, botMessageId: message.botMessageId ?? `${message.id}-bot` };
  return {
    ...message,
    prompt: message.prompt ?? '',
    data: message.data ?? null,
    streamingAnswer: '',
    intermediateSteps: [],
    generatingStopped: Boolean(message.generatingStopped),
    error: Boolean(message.error),
  };
}

/** Returns the messages of a saved session. */
export function sessionMessages(session: SavedSession): ChatMessage[] {
  const inner = (session.raw ?? {}) as Raw;
  const turns = (Array.isArray(inner.turns) ? inner.turns : Array.isArray(inner.messages) ? inner.messages : []) as Raw[];
  const stored = session.state?.messages;
  // The server's own record of the turns (with their message ids) comes first; else the chat's copy.
  if (turns.length === 0 && Array.isArray(stored) && stored.every(isChatMessage)) return stored.map(complete);
  return turns.flatMap((turn, index): ChatMessage[] => {
    const prompt = typeof turn.prompt === 'string' ? turn.prompt : '';
    if (!prompt) return [];
    const botId = typeof turn.message_id === 'string' ? turn.message_id : `turn-${index}`;
    const data = answerOf(turn);
    const status = String(turn.status ?? '').toLowerCase();
    return [
      { type: 'user', id: `user-${botId}`, botMessageId: botId, prompt },
      {
        type: 'bot',
        id: botId,
        prompt,
        data: data ? { ...data, message_id: data.message_id ?? botId, session_id: data.session_id ?? session.id } : null,
        streamingAnswer: '',
        intermediateSteps: [],
        generatingStopped: !data && status.includes('stop'),
        error: !data && (status.includes('fail') || status.includes('error')),
      },
    ];
  });
}

/** Returns the scope a saved session was asked over, from its saved state. */
function scopeOf(session: SavedSession): AskScope | undefined {
  const state = session.state;
  const id = state?.currentFeedOrDocumentId;
  if (!id) return undefined;
  const { board_id: boardId, channel_id: channelId } = state?.metadata ?? {};
  return {
    type: state?.searchWithin === 'document' ? 'document' : 'feed',
    id,
    ...(boardId ? { board_id: boardId } : {}),
    ...(channelId ? { channel_id: channelId } : {}),
  };
}

/** Returns a saved session as the chat loads it: its messages, scope, Pro setting and attachments. */
export function loadedSession(session: SavedSession): LoadedSession {
  const state = session.state;
  return { sessionId: session.id, messages: sessionMessages(session), scope: scopeOf(session), pro: state?.settings?.pro, attachmentIds: state?.attachments };
}

const unended = (m: ChatMessage): m is BotMessage => m.type === 'bot' && !m.data && !m.generatingStopped && !m.error;

/**
 * Whether the last answer has no ending on record yet: the server is still answering it, or has
 * not yet noticed that the tab it streamed to went away.
 */
export const lastAnswerUnended = (messages: readonly ChatMessage[]): boolean => {
  const last = messages.at(-1);
  return last !== undefined && unended(last);
};

/** Returns the messages with every answer that has no ending shown as stopped: nothing streams it here any more. */
export const stopUnended = (messages: readonly ChatMessage[]): ChatMessage[] =>
  messages.map((m) => (unended(m) ? { ...m, generatingStopped: true } : m));
