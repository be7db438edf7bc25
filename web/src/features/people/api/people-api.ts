/**
 * Calls and queries for the user's contact book: their people (a page at a time, filtered), one
 * person, the person behind a card's contacts (added at first sight), and editing a person's name
 * and priority. Answers are checked with zod.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { peopleKeys, type PeopleFilter } from '../../../lib/queries/people-keys';

export const PRIORITIES = [
  { value: 'HIGH', label: 'High' },
  { value: 'MEDIUM', label: 'Medium' },
  { value: 'LOW', label: 'Low' },
] as const;

export type Priority = (typeof PRIORITIES)[number]['value'];

const contactSchema = z.object({ contact_id: z.string(), contact_name: z.string(), contact_source: z.string() });

const personSchema = z.object({
  people_id: z.string(),
  people_name: z.string(),
  people_priority: z.enum(['HIGH', 'MEDIUM', 'LOW']),
  contacts: z.array(contactSchema),
});

/** A person of the user's contact book, with the spec's fields. */
export type Person = z.infer<typeof personSchema>;
/** One way of reaching a person. */
export type Contact = z.infer<typeof contactSchema>;

const personAnswer = z.object({ results: personSchema });
const pageAnswer = z.object({ results: z.array(personSchema), page: z.number(), has_more: z.boolean() });
export type PeoplePage = z.infer<typeof pageAnswer>;

const PAGE_SIZE = 20;

export const peopleQueries = {
  /** The user's people by name, 20 at a time. */
  list: (filter: PeopleFilter) =>
    infiniteQueryOptions({
      queryKey: peopleKeys.list(filter),
      initialPageParam: 0,
      queryFn: async ({ pageParam, signal }) => {
        const params = new URLSearchParams({ page: String(pageParam), limit: String(PAGE_SIZE) });
        if (filter.q.trim()) params.set('q', filter.q.trim());
        if (filter.priority) params.set('priority', filter.priority);
        return pageAnswer.parse(await api.get<unknown>(`/people?${params}`, { signal }));
      },
      getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
    }),
  person: (peopleId: string) =>
    queryOptions({
      queryKey: peopleKeys.person(peopleId),
      queryFn: async ({ signal }) =>
        personAnswer.parse(await api.get<unknown>(`/people/${encodeURIComponent(peopleId)}`, { signal })).results,
    }),
  /** The person behind `contacts` (as JSON) of `source`; the server adds them at first sight. */
  contactInfo: (contacts: string, source: string) =>
    queryOptions({
      queryKey: peopleKeys.contactInfo(contacts, source),
      queryFn: async ({ signal }) =>
        personAnswer.parse(
          await api.get<unknown>(`/people/contact_info?${new URLSearchParams({ contacts, source })}`, { signal }),
        ).results,
    }),
};

export interface PersonEdit {
  name?: string;
  priority?: Priority;
}

/** Renames a person and/or changes their priority; answers the person after the change. */
export const editPerson = async (peopleId: string, edit: PersonEdit): Promise<Person> =>
  personAnswer.parse(await api.post<unknown>(`/people/edit/${encodeURIComponent(peopleId)}`, { body: edit })).results;
