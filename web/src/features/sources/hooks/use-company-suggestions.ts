import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isApiError, serverMessage } from '../../../lib/api-client';
import { asSentence } from '../../../lib/format';
import { useDebounced } from '../../../lib/use-debounced';
import { COMPANY_LIST_MISSING, edgarQueries, type Company } from '../api/edgar-api';

/** How long typing must pause before the matching companies are asked for. */
export const SUGGEST_DELAY_MS = 250;

export interface CompanySuggestions {
  /** The companies matching what was typed (the last answer's while the next is on its way). */
  options: Company[];
  /** What the options area says instead of (or besides) options: searching, no match, or why it cannot search. */
  note: string | null;
}

/** Returns the words for a search that failed; following by CIK works whatever the search does. */
function searchFailure(error: unknown): string {
  if (isApiError(error) && error.code === COMPANY_LIST_MISSING) {
    return `${asSentence(error.message)} You can still follow a company by its CIK.`;
  }
  const words = serverMessage(error);
  return `${words ? asSentence(words) : 'Companies could not be searched just now.'} You can still follow a company by its ticker or CIK.`;
}

/**
 * The companies matching `text`, asked for once typing pauses and only while the options are
 * `open` (not for the label of a company just picked), with what to say while there are none.
 */
export function useCompanySuggestions(text: string, open: boolean): CompanySuggestions {
  const typed = text.trim();
  const q = useDebounced(typed, SUGGEST_DELAY_MS);
  const enabled = open && q !== '';
  const query = useQuery({ ...edgarQueries.companies(q), enabled, placeholderData: keepPreviousData });
  const options = query.data ?? [];
  if (!open || typed === '') return { options, note: null };
  if (query.isError) return { options: [], note: searchFailure(query.error) };
  if (typed !== q || query.isFetching) return { options, note: 'Searching…' };
  if (options.length === 0) return { options, note: `No company matches “${q}”. Follow it as typed if it is a ticker or a CIK.` };
  return { options, note: null };
}
