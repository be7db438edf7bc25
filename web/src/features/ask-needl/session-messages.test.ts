import { describe, expect, it } from 'vitest';
import type { SavedSession } from './api/ask-api';
import { highlightRuns } from './highlight-runs';
import { sessionMessages } from './session-messages';

describe('a saved session', () => {
  it('becomes chat messages from the server record of its turns', () => {
    const raw = {
      session_id: 's1',
      title: 'Revenue',
      messages: [
        { message_id: 'm1', prompt: 'How did revenue do?', status: 'COMPLETED', answer: { answer_type: 'ANSWER', generated_answer: { answer: 'It grew [1].', sentences: [] }, retrieved_results: [], followup_questions: [], answer_quality: 'HIGH', pro: false } },
        { message_id: 'm2', prompt: 'And costs?', status: 'STOPPED', answer: null },
      ],
      state: { messages: [] },
    };
    const session: SavedSession = { id: 's1', title: 'Revenue', updatedAt: null, state: null, raw };
    const messages = sessionMessages(session);
    expect(messages.map((m) => m.type)).toEqual(['user', 'bot', 'user', 'bot']);
    expect(messages[1]).toMatchObject({ type: 'bot', data: { message_id: 'm1', session_id: 's1' }, intermediateSteps: [] });
    expect(messages[3]).toMatchObject({ generatingStopped: true, data: null });
  });

  it('completes a stored chat copy that lacks the streaming fields', () => {
    const session: SavedSession = {
      id: 's2',
      title: 't',
      updatedAt: null,
      state: { messages: [{ type: 'user', id: 'u', botMessageId: 'b', prompt: 'Q' }, { type: 'bot', id: 'b', prompt: 'Q' } as never] },
      raw: {},
    };
    expect(sessionMessages(session)[1]).toMatchObject({ intermediateSteps: [], streamingAnswer: '', error: false });
  });
});

describe('search-mode highlights', () => {
  it('keep only the em marks as runs, never markup or script text', () => {
    expect(highlightRuns('Steel <em>tariffs</em> &amp; <b>duties</b><script>alert(1)</script><img src=x onerror=alert(1)>')).toEqual([
      { text: 'Steel ', mark: false },
      { text: 'tariffs', mark: true },
      { text: ' & duties', mark: false },
    ]);
  });
});
