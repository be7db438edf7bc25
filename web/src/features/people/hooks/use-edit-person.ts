import { useMutation, useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { peopleKeys } from '../../../lib/queries/people-keys';
import { editPerson, type PeoplePage, type Person, type PersonEdit } from '../api/people-api';

export const EDIT_FAILED = 'Failed to update the contact. Please try again.';

export interface PersonChange extends PersonEdit {
  peopleId: string;
}

/** Returns `person` with the change applied, as the server will keep it (the name trimmed). */
export function changed(person: Person, { peopleId, name, priority }: PersonChange): Person {
  if (person.people_id !== peopleId) return person;
  return {
    ...person,
    ...(name !== undefined ? { people_name: name.trim().replace(/\s+/g, ' ') } : {}),
    ...(priority ? { people_priority: priority } : {}),
  };
}

type Snapshot = Array<[QueryKey, unknown]>;

/** Shows the change in every cached copy of the person; returns what they held before. */
async function applyOptimistically(queryClient: QueryClient, change: PersonChange): Promise<Snapshot> {
  await queryClient.cancelQueries({ queryKey: peopleKeys.all() });
  const snapshot = queryClient.getQueriesData({ queryKey: peopleKeys.all() });
  queryClient.setQueryData<Person>(peopleKeys.person(change.peopleId), (p) => (p ? changed(p, change) : p));
  queryClient.setQueriesData<InfiniteData<PeoplePage>>({ queryKey: peopleKeys.lists() }, (data) =>
    data
      ? { ...data, pages: data.pages.map((page) => ({ ...page, results: page.results.map((p) => changed(p, change)) })) }
      : data,
  );
  return snapshot;
}

/**
 * Renames a person or changes their priority: every list and detail shows it at once, and goes
 * back to what it was (with a toast saying why) if the server refuses.
 */
export function useEditPerson() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: (error: unknown) => (isApiError(error) && error.message ? error.message : EDIT_FAILED) },
    mutationFn: ({ peopleId, ...edit }: PersonChange) => editPerson(peopleId, edit),
    onMutate: (change) => applyOptimistically(queryClient, change),
    onError: (_error, _change, snapshot) => snapshot?.forEach(([key, data]) => queryClient.setQueryData(key, data)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all() }),
  });
}
