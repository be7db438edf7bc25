import { useQuery } from '@tanstack/react-query';
import { isRefusedSearch, searchQueries } from '../api/search-api';
import type { SearchState } from '../search-state';

/**
 * Returns the two calls behind a search: the category tabs with their counts, and the page of
 * results. Nothing is asked for an empty query. `refusal` is the server's message when it
 * refused the search itself (a keyword expression it cannot read), for the search box to show.
 */
export function useSearch(scope: string | null, state: SearchState) {
  const enabled = state.q !== '';
  const categories = useQuery({ ...searchQueries.categories(scope, state), enabled });
  const results = useQuery({ ...searchQueries.results(scope, state), enabled });
  const refused = [categories.error, results.error].find(isRefusedSearch);
  return { categories, results, refusal: refused instanceof Error ? refused.message : null };
}

/** Returns the query the server actually searched for, when it corrected the spelling. */
export function useCorrectedQuery(scope: string | null, state: SearchState): string | null {
  const categories = useQuery({ ...searchQueries.categories(scope, state), enabled: state.q !== '' });
  const corrected = categories.data?.query_params.corrected_q?.trim();
  return state.spellCorrect && corrected && corrected !== state.q ? corrected : null;
}
