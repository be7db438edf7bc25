/**
 * A saved session's conversation as the chat shows it. The session may hold the chat's own
 * messages (saved with PUT) or only the server's record of its turns (question, answer data,
 * how it ended); either becomes user and bot messages.
 */
import type { SavedSession } from './api/ask-api';
import type { AnswerData, ChatMessage } from './types';

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
