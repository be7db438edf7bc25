import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { AssistantSettingsPage } from './assistant-settings-page';

const quoted = { origin: 'flags', url: null, model: 'llama3.1', key_set: false, updated_at: null };

describe('the assistant settings page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks a model server, then saves it with its key, never showing a key back', async () => {
    const saved = { origin: 'saved', url: 'http://localhost:11434/v1', model: 'tiny', key_set: true, updated_at: new Date().toISOString() };
    const calls = stubApi({
      'GET /api/admin/assistant': () => json(200, quoted),
      'POST /api/admin/assistant/check': () => json(200, { ok: true, message: 'tiny answered in 12 ms', elapsed_ms: 12 }),
      'PUT /api/admin/assistant': () => json(200, saved),
    });
    renderWithProviders(<AssistantSettingsPage />, { route: '/settings/assistant' });
    expect(await screen.findByTestId('assistant-mode')).toHaveTextContent('Answers are quoted from your sources: no language model is configured.');
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Check connection' })).toBeDisabled();
    await user.type(screen.getByLabelText('Model server address'), 'http://localhost:11434/v1');
    await user.clear(screen.getByLabelText('Model'));
    await user.type(screen.getByLabelText('Model'), 'tiny');
    await user.type(screen.getByLabelText('API key'), 'sk-1');
    await user.click(screen.getByRole('button', { name: 'Check connection' }));
    expect(await screen.findByTestId('assistant-check')).toHaveTextContent('Connected: tiny answered in 12 ms');
    expect(calls.find((c) => c.key === 'POST /api/admin/assistant/check')?.body).toEqual({ url: 'http://localhost:11434/v1', model: 'tiny', key: 'sk-1' });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/admin/assistant')?.body).toEqual({ url: 'http://localhost:11434/v1', model: 'tiny', key: 'sk-1' }));
    expect(await screen.findByTestId('assistant-mode')).toHaveTextContent('Answers are written by the language model tiny at http://localhost:11434/v1.');
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByLabelText('API key')).toHaveAttribute('placeholder', 'A key is set; leave empty to keep it');
  });

  it('says what went wrong when the check fails', async () => {
    stubApi({
      'GET /api/admin/assistant': () => json(200, { ...quoted, url: 'http://127.0.0.1:9/v1' }),
      'POST /api/admin/assistant/check': () =>
        json(200, { ok: false, message: 'could not connect to http://127.0.0.1:9/v1: Connection refused', elapsed_ms: null }),
    });
    renderWithProviders(<AssistantSettingsPage />, { route: '/settings/assistant' });
    await userEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByTestId('assistant-check')).toHaveTextContent('Not working: could not connect to http://127.0.0.1:9/v1: Connection refused');
  });

  it('tells members the page is for administrators', async () => {
    stubApi({ 'GET /api/admin/assistant': () => json(403, { code: 'forbidden', message: 'only an administrator may do this' }) });
    renderWithProviders(<AssistantSettingsPage />, { route: '/settings/assistant' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Only administrators can change how the assistant writes answers.');
  });
});
