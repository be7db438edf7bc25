import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { documentKeys } from '../../../lib/queries/document-keys';
import { libraryKeys } from '../../../lib/queries/library-keys';
import { sourceKeys } from '../../../lib/queries/source-keys';
import { followWebsite, type FollowedWebsite } from '../api/website-api';
import { followFailureMessage } from './use-unfollow-source';

/** An address typed without a scheme ("example.com") is taken as https. */
const withScheme = (url: string) => (url && !/^[a-z][a-z0-9+.-]*:/i.test(url) ? `https://${url}` : url);

export const followWebsiteSchema = z.object({
  url: z.string().trim().min(1, 'URL is a required field').transform(withScheme).pipe(z.url('URL must be a valid URL')),
});

/**
 * Validates the follow-a-website form and follows the site. The server's refusal (or the
 * spec's generic text) is returned for the form to show inline; on success the form is cleared
 * and the site is returned for the confirmation.
 */
export function useFollowWebsite() {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>();
  const [followed, setFollowed] = useState<FollowedWebsite | null>(null);
  const mutation = useMutation({
    meta: { toast: false },
    mutationFn: followWebsite,
    onSuccess: (site) => {
      setFollowed(site);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sourceKeys.all() }),
        queryClient.invalidateQueries({ queryKey: documentKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all() }),
      ]);
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = followWebsiteSchema.safeParse(Object.fromEntries(new FormData(form)));
    setFollowed(null);
    if (!result.success) {
      setError(result.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    mutation.mutate(result.data.url, { onSuccess: () => form.reset() });
  };

  return {
    error,
    serverError: mutation.isError ? followFailureMessage(mutation.error) : null,
    followed,
    pending: mutation.isPending,
    handleSubmit,
  };
}
