import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { addRssFeed, type RssSourceList } from '../api/source-api';

export const addRssSchema = z.object({
  url: z.string().trim().min(1, 'URL is a required field').pipe(z.url('URL must be a valid URL')),
  label: z.string().trim().optional(),
});

export type AddRssErrors = Partial<Record<'url' | 'label', string>>;

/**
 * Empties the fields that still hold what was sent: whatever was typed while the feed was being
 * added (the next feed's address) stays.
 */
function clearSent(form: HTMLFormElement, sent: FormData) {
  for (const name of ['url', 'label']) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement && field.value === sent.get(name)) field.value = '';
  }
}

/**
 * Validates the add-feed form and follows the feed. The server's message is returned for the
 * form to show inline; on success the new source joins the cached list and the fields that still
 * hold what was sent are cleared.
 */
export function useAddRssFeed() {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<AddRssErrors>({});
  const mutation = useMutation({
    meta: { toast: false },
    mutationFn: addRssFeed,
    onSuccess: (source) => {
      queryClient.setQueryData<RssSourceList>(sourceKeys.rss(), (list) =>
        list && !list.results.some((s) => s.source_id === source.source_id)
          ? { results: [...list.results, source] }
          : list,
      );
      // A first feed connects My Data's Website & RSS.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
      ]);
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = addRssSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!result.success) {
      const next: AddRssErrors = {};
      for (const issue of result.error.issues) next[issue.path[0] as 'url' | 'label'] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    const { url, label } = result.data;
    const sent = new FormData(form);
    mutation.mutate({ url, ...(label ? { label } : {}) }, { onSuccess: () => clearSent(form, sent) });
  };

  return { errors, serverError: mutation.error?.message ?? null, pending: mutation.isPending, handleSubmit };
}
