import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { AnswerModeNote } from './answer-mode-note';

describe('the answer mode note', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says answers are quoted from the sources when no model is configured', async () => {
    stubApi({ 'GET /api/ask/mode': () => json(200, { mode: 'quoted', model: null, can_configure: false }) });
    renderWithProviders(<AnswerModeNote />, { route: '/ask-needl/full' });
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Answers are quoted from your sources, not written by a language model: no model is configured.',
    );
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('leads administrators to the model server settings', async () => {
    stubApi({ 'GET /api/ask/mode': () => json(200, { mode: 'quoted', model: null, can_configure: true }) });
    renderWithProviders(<AnswerModeNote />, { route: '/ask-needl/full' });
    expect(await screen.findByRole('link', { name: 'Set up a model server' })).toHaveAttribute('href', '/settings/assistant');
  });

  it('says nothing while a model writes the answers', async () => {
    const calls = stubApi({ 'GET /api/ask/mode': () => json(200, { mode: 'model', model: 'llama3.1', can_configure: true }) });
    renderWithProviders(<AnswerModeNote />, { route: '/ask-needl/full' });
    await vi.waitFor(() => expect(calls.some((c) => c.key === 'GET /api/ask/mode')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
