import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { AskNeedlProvider } from './ask-needl-provider';
import { AskNeedlHistoryPage } from './history-page';

function setup(route: string, sessions: Record<string, () => Response> = {}) {
  const calls = stubApi({
    'GET /api/feature/config': () => json(200, { features: { ask_needl_copilot: true, ask_needl_history: true } }),
    'GET /api/user/preferences': () => json(200, { nav_state: null, askneedl_pro: false }),
    'GET /api/ml/ask-needl/messaging': () => json(200, { results: { all: [], feed: [], document: [] } }),
    'GET /api/ml/ask-needl/sessions': () =>
      json(200, { sessions: [{ id: 's1', title: 'Revenue in 2024', updated_at: '2026-11-20T10:00:00Z' }] }),
    ...sessions,
  });
  renderWithProviders(
    <AskNeedlProvider>
      <AskNeedlHistoryPage />
    </AskNeedlProvider>,
    { route },
  );
  return calls;
}

describe('the AskNeedl history page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the conversations and asks for one to be picked before any is chosen', async () => {
    const calls = setup('/ask-needl/history');
    expect(await screen.findByRole('link', { name: 'Revenue in 2024' })).toHaveAttribute('href', '/ask-needl/history?sessionId=s1');
    expect(screen.getByText('Pick a conversation')).toBeInTheDocument();
    expect(screen.queryByText('This conversation could not be opened')).not.toBeInTheDocument();
    expect(calls.some((c) => c.key.startsWith('GET /api/ml/ask-needl/sessions/'))).toBe(false);
  });

  it('says so when the conversation the address names cannot be opened', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup('/ask-needl/history?sessionId=gone', {
      'GET /api/ml/ask-needl/sessions/gone': () => json(404, { code: 'not_found', message: 'session not found' }),
    });
    expect(await screen.findByText('This conversation could not be opened')).toBeInTheDocument();
    expect(screen.queryByText('Pick a conversation')).not.toBeInTheDocument();
  });
});
