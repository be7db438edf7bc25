import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { AskNeedlProvider } from './ask-needl-provider';
import { AskNeedlOverlayBody } from './ask-needl-overlay';
import { AskNeedlPage } from './ask-needl-page';

const sse = (...events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
const done = {
  answer_type: 'ANSWER',
  generated_answer: { answer: 'Steel prices are the main risk.', sentences: [] },
  retrieved_results: [],
  followup_questions: [],
  answer_quality: 'HIGH',
  pro: false,
  message_id: 'm1',
  session_id: null,
  report_chat: true,
};

function setup(route = '/ask-needl/full?report_id=r1', body = <AskNeedlPage />) {
  const calls = stubApi({
    'GET /api/feature/config': () => json(200, { features: { ask_needl_copilot: true, ask_needl_history: true } }),
    'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    'GET /api/ml/ask-needl/messaging': () => json(200, { results: { all: [], feed: [], document: [] } }),
    'GET /api/ml/report/r1': () =>
      json(200, {
        results: {
          id: 'r1',
          name: 'Acme research',
          feed_id: null,
          payload: { documents: [{ id: 'f1', status: 'COMPLETED', metadata: { fileName: 'acme.pdf', guid: 'd1' } }] },
          sections: [{ heading: 'Risks' }],
        },
      }),
    'POST /api/ml/ask-needl': () => new Response(sse({ status: 'DONE', data: done }), { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  renderWithProviders(<AskNeedlProvider>{body}</AskNeedlProvider>, { route });
  return calls;
}

describe('the chat in report mode', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hides the input until there are messages, asks with the report id, and exports from two messages on', async () => {
    const calls = setup();
    expect(await screen.findByText(/1 source\(s\) processing\/added/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your question' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export PDF' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'What does the report say about risks?' }));
    expect(await screen.findByText('Steel prices are the main risk.')).toBeInTheDocument();
    const ask = calls.find((c) => c.key === 'POST /api/ml/ask-needl');
    expect(ask?.body).toMatchObject({ prompt: 'What does the report say about risks?', report_id: 'r1' });
    expect(screen.getByRole('textbox', { name: 'Your question' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export PDF' })).toBeEnabled());
    // A report chat is not saved as a session.
    expect(calls.some((c) => c.key.startsWith('PUT /api/ml/ask-needl/sessions'))).toBe(false);
  });

  it('is on in the overlay beside a report’s page, and asks over that report', async () => {
    const calls = setup('/report/r1', <AskNeedlOverlayBody />);
    expect(await screen.findByText(/1 source\(s\) processing\/added/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'What does the report say about risks?' }));
    expect(await screen.findByText('Steel prices are the main risk.')).toBeInTheDocument();
    expect(calls.find((c) => c.key === 'POST /api/ml/ask-needl')?.body).toMatchObject({ report_id: 'r1' });
  });

  it('is off in the overlay elsewhere', async () => {
    const calls = setup('/feeds/home', <AskNeedlOverlayBody />);
    expect(await screen.findByRole('textbox', { name: 'Your question' })).toBeInTheDocument();
    expect(screen.queryByText(/source\(s\) processing\/added/)).not.toBeInTheDocument();
    expect(calls.some((c) => c.key === 'GET /api/ml/report/r1')).toBe(false);
  });
});
