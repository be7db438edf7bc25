import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updatePreferences, userQueries, type UserPreferences } from './user-queries';

/**
 * Saves preference changes, showing them at once and settling on what the server returns;
 * a failure rolls back (and reaches a toast through the mutation cache).
 */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  const key = userQueries.preferences().queryKey;
  return useMutation({
    mutationFn: (changes: Partial<UserPreferences>) => updatePreferences(changes),
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      if (previous) queryClient.setQueryData(key, { ...previous, ...changes });
      return { previous };
    },
    onError: (_error, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (preferences) => queryClient.setQueryData(key, preferences),
  });
}
