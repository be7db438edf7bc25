import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { isApiError } from '../../../lib/api-client';
import { formatRelative } from '../../../lib/format';
import { assistantKeys } from '../../../lib/queries/assistant-queries';
import {
  assistantSettingsQueries,
  checkAssistant,
  saveAssistantSettings,
  type AssistantChange,
  type AssistantSettings,
} from '../api/assistant-settings-api';
import { SettingsNav } from './settings-nav';

/** The server's words for a refused change, else a plain failure. */
const reason = (error: unknown, fallback: string) =>
  isApiError(error) && error.status < 500 && error.message ? error.message : fallback;

/** One sentence on how answers are made now. */
function currentMode(settings: AssistantSettings): string {
  const how = settings.url
    ? `Answers are written by the language model ${settings.model} at ${settings.url}.`
    : 'Answers are quoted from your sources: no language model is configured.';
  const origin =
    settings.origin === 'flags'
      ? ' This comes from the server’s start settings; saving here replaces them.'
      : settings.updated_at
        ? ` Saved ${formatRelative(settings.updated_at)}.`
        : '';
  return how + origin;
}

/** The form, filled from the setting in force. */
function AssistantForm({ settings }: { settings: AssistantSettings }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(settings.url ?? '');
  const [model, setModel] = useState(settings.model);
  const [key, setKey] = useState('');
  const [clearKey, setClearKey] = useState(false);

  const change = (): AssistantChange => ({
    url: url.trim() || null,
    model: model.trim(),
    ...(key.trim() ? { key: key.trim() } : {}),
    ...(clearKey && !key.trim() ? { clear_key: true } : {}),
  });
  const settled = (saved: AssistantSettings) => {
    queryClient.setQueryData(assistantKeys.settings(), saved);
    void queryClient.invalidateQueries({ queryKey: assistantKeys.mode() });
    setKey('');
    setClearKey(false);
  };
  const save = useMutation({
    mutationFn: saveAssistantSettings,
    meta: { toast: false },
    onSuccess: settled,
  });
  const check = useMutation({ mutationFn: checkAssistant, meta: { toast: false } });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(change());
  };

  return (
    <form className="stack" onSubmit={onSubmit} aria-describedby="assistant-help">
      <p id="assistant-help" className="small muted">
        Any server that answers the OpenAI chat-completions API works, on this machine (for example Ollama at
        http://localhost:11434/v1) or elsewhere. Leave the address empty to have answers quoted from your sources.
      </p>
      <TextField
        label="Model server address"
        type="url"
        inputMode="url"
        placeholder="http://localhost:11434/v1"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        autoComplete="off"
      />
      <TextField label="Model" placeholder="llama3.1" value={model} onChange={(e) => setModel(e.target.value)} autoComplete="off" />
      <TextField
        label="API key"
        type="password"
        placeholder={settings.key_set ? 'A key is set; leave empty to keep it' : 'Not needed for most local servers'}
        value={key}
        onChange={(e) => setKey(e.target.value)}
        autoComplete="new-password"
      />
      {settings.key_set && (
        <label className="checkbox-label">
          <input type="checkbox" className="checkbox" checked={clearKey} onChange={(e) => setClearKey(e.target.checked)} />
          Remove the key that is set
        </label>
      )}
      <p className="form-actions">
        <button type="button" className="button" onClick={() => check.mutate(change())} disabled={check.isPending || !url.trim()}>
          {check.isPending ? 'Checking…' : 'Check connection'}
        </button>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </p>
      <div aria-live="polite">
        {check.isSuccess && (
          <p className={check.data.ok ? 'form-success' : 'form-error'} data-testid="assistant-check">
            {check.data.ok ? 'Connected: ' : 'Not working: '}
            {check.data.message}
          </p>
        )}
        {check.isError && <p className="form-error">{reason(check.error, 'The check could not be run. Please try again.')}</p>}
        {save.isSuccess && <p className="form-success">Saved. The next question uses it.</p>}
        {save.isError && <p className="form-error">{reason(save.error, 'The setting could not be saved. Please try again.')}</p>}
      </div>
    </form>
  );
}

/** /settings/assistant: the model server AskNeedl writes answers with (administrators). */
export function AssistantSettingsPage() {
  const settings = useQuery(assistantSettingsQueries.settings());
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="assistant-heading">
        <h2 id="assistant-heading" className="card-title">
          Assistant
        </h2>
        {settings.isPending ? (
          <Spinner label="Loading the assistant's settings" />
        ) : settings.isError ? (
          <p className="form-error" role="alert">
            {isApiError(settings.error) && settings.error.status === 403
              ? 'Only administrators can change how the assistant writes answers.'
              : 'The assistant’s settings could not be loaded.'}
          </p>
        ) : (
          <>
            <p data-testid="assistant-mode">{currentMode(settings.data)}</p>
            <AssistantForm key={settings.data.updated_at ?? 'flags'} settings={settings.data} />
          </>
        )}
      </section>
    </div>
  );
}
