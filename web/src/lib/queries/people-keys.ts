/**
 * Query keys for the user's contact book (people), from general to specific. They live here
 * rather than in the people feature because the live-event mapping (src/lib) invalidates them too.
 */
export interface PeopleFilter {
  /** Part of a name, whatever its case ('' for all). */
  q: string;
  /** HIGH, MEDIUM, LOW, or '' for every priority. */
  priority: string;
}

export const peopleKeys = {
  all: () => ['people'] as const,
  /** Every list of people, whatever its filter. */
  lists: () => [...peopleKeys.all(), 'list'] as const,
  list: (filter: PeopleFilter) => [...peopleKeys.lists(), filter] as const,
  /** One person by id. */
  person: (peopleId: string) => [...peopleKeys.all(), 'person', peopleId] as const,
  /** The person behind a card's contacts (the JSON the card sends, and its source). */
  contactInfo: (contacts: string, source: string) => [...peopleKeys.all(), 'contact-info', { contacts, source }] as const,
};
