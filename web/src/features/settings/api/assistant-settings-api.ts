/**
 * The model server AskNeedl writes answers with (administrators only): the setting in force, saving
 * it, and checking a server before saving. The key is never read back, only whether one is set.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { assistantKeys } from '../../../lib/queries/assistant-queries';

export interface AssistantSettings {
  /** `saved` by an administrator (wins), or the server's start `flags`. */
  origin: 'saved' | 'flags';
  /** The chat-completions base URL; null: answers are quoted from the sources. */
  url: string | null;
  model: string;
  key_set: boolean;
  updated_at: string | null;
}

export interface AssistantChange {
  url: string | null;
  model: string;
  /** A new key; absent keeps the key that is set. */
  key?: string;
  clear_key?: boolean;
}

export interface CheckResult {
  ok: boolean;
  message: string;
  elapsed_ms: number | null;
}

export const assistantSettingsQueries = {
  settings: () =>
    queryOptions({
      queryKey: assistantKeys.settings(),
      queryFn: ({ signal }) => api.get<AssistantSettings>('/admin/assistant', { signal }),
      meta: { toast: false },
    }),
};

export const saveAssistantSettings = (change: AssistantChange) =>
  api.put<AssistantSettings>('/admin/assistant', { body: change });

export const checkAssistant = (change: AssistantChange) =>
  api.post<CheckResult>('/admin/assistant/check', { body: change });
