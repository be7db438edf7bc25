/**
 * Which kind of answers AskNeedl gives: written by a language model from the sources, or
 * quoted from the sources (no model is configured). Shared: the assistant says so, and the
 * settings show administrators where the model server is set.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';

export interface AssistantMode {
  mode: 'model' | 'quoted';
  /** The model answers are written with, in `model` mode. */
  model: string | null;
  /** Whether the user may change the model server (administrators). */
  can_configure: boolean;
}

export const assistantKeys = {
  all: () => ['assistant'] as const,
  mode: () => [...assistantKeys.all(), 'mode'] as const,
  settings: () => [...assistantKeys.all(), 'settings'] as const,
};

export const assistantQueries = {
  mode: () =>
    queryOptions({
      queryKey: assistantKeys.mode(),
      queryFn: ({ signal }) => api.get<AssistantMode>('/ask/mode', { signal }),
      staleTime: 60_000,
      meta: { toast: false },
    }),
};
