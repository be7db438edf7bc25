import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { readLastSession } from '../last-session';
import { citation } from '../test/fixtures';
import { AskNeedlProvider } from './ask-needl-provider';
import { ChatPanel } from './chat-panel';

const sse = (...events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** A streamed answer whose body the test writes to, piece by piece. */
function streamedResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'x-session-id': 's1', 'x-message-id': 'm1' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

const done = {
  answer_type: 'ANSWER',
  generated_answer: { answer: 'Revenue grew by twelve percent [1].', sentences: [] },
  retrieved_results: [citation()],
  followup_questions: ['What drove it?'],
  answer_quality: 'LOW',
  answer_quality_message: null,
  pro: false,
  message_id: 'm1',
  session_id: 's1',
};

function setup(stream: ReturnType<typeof streamedResponse>) {
  const calls = stubApi({
    'GET /api/feature/config': () => json(200, { features: { ask_needl_copilot: true, ask_needl_history: true, notebooks: true } }),
    'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    'GET /api/ml/ask-needl/messaging': () => json(200, { results: { all: [{ question: 'What changed this week?' }], feed: [], document: [] } }),
    'POST /api/ml/ask-needl': () => stream.response,
    'PUT /api/ml/ask-needl/sessions/s1': () => json(200, {}),
  });
  renderWithProviders(
    <AskNeedlProvider>
      <ChatPanel />
    </AskNeedlProvider>,
    { route: '/ask-needl/full' },
  );
  return calls;
}

describe('the chat panel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends on Enter, streams the answer, then shows citations, the quality notice and follow-ups', async () => {
    const stream = streamedResponse();
    const calls = setup(stream);
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'What changed this week?' })).toBeInTheDocument();
    expect(screen.getByText('AskNeedl can make mistakes. Double-check important info.')).toBeInTheDocument();

    const box = screen.getByRole('textbox', { name: 'Your question' });
    await user.type(box, 'How did revenue do?{Shift>}{Enter}{/Shift}Be brief');
    expect(calls.some((c) => c.key === 'POST /api/ml/ask-needl')).toBe(false);
    await user.keyboard('{Enter}');

    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/ml/ask-needl')?.body).toMatchObject({ prompt: 'How did revenue do?\nBe brief', stream: true }));
    expect(await screen.findByTestId('ask-thinking')).toHaveTextContent(/^Thinking\.+$/);

    const text = sse({ status: 'INTERMEDIATE_STEP', data: 'Searching your data' }, { status: 'GENERATED_ANSWER', data: 'Revenue grew ' }, { status: 'GENERATED_ANSWER', data: 'by twelve percent [1].' });
    const cut = text.indexOf('grew') + 2;
    stream.write(text.slice(0, cut));
    stream.write(text.slice(cut));
    expect(await screen.findByText(/Revenue grew/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop generating' })).toBeInTheDocument();
    // The session is the tab's last active one from the stream's headers, before the answer is done.
    expect(readLastSession()).toBe('s1');

    stream.write(sse({ status: 'DONE', data: done }));
    stream.close();
    expect(await screen.findByTestId('citation')).toHaveAccessibleName('Source 1: Annual report 2024');
    expect(screen.getByTestId('answer-quality')).toHaveTextContent('We found that the answer may not be satisfactory.');
    expect(screen.getByRole('button', { name: 'What drove it?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save to note' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.key === 'PUT /api/ml/ask-needl/sessions/s1')).toBe(true));
  });

  it('stops the answer on Escape and shows the error block when the stream fails', async () => {
    const stream = streamedResponse();
    setup(stream);
    const box = await screen.findByRole('textbox', { name: 'Your question' });
    fireEvent.change(box, { target: { value: 'Question' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    stream.write(sse({ status: 'GENERATED_ANSWER', data: 'Partial' }));
    expect(await screen.findByText('Partial')).toBeInTheDocument();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(await screen.findByText('Generation stopped.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('shows the answer error when the stream sends the error marker', async () => {
    const stream = streamedResponse();
    setup(stream);
    const box = await screen.findByRole('textbox', { name: 'Your question' });
    fireEvent.change(box, { target: { value: 'Question' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    stream.write('data: [ERROR] engine unavailable\n\n');
    expect(await screen.findByRole('alert')).toHaveTextContent('Uh-oh! Something went wrong');
  });
});
