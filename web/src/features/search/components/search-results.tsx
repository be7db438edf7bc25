import type { UseQueryResult } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
import { ListState } from '../../../components/ui/list-state';
import { GENERIC_SEARCH_FAILURE } from '../messages';
import type { ResultsAnswer } from '../api/search-api';
import type { HelpTopic } from '../help-links';
import { ResultList } from './result-list';
import { SearchEmpty } from './search-empty';
import { SearchPagination } from './search-pagination';
import { SearchSkeleton } from './search-skeleton';

export interface SearchResultsProps {
  results: UseQueryResult<ResultsAnswer, unknown>;
  page: number;
  /** Whether the server refused the query (its message shows by the search box instead). */
  refused: boolean;
  helpTopic: HelpTopic;
  onPage: (page: number) => void;
  now?: Date;
}

/** A page of results, or why there is none: loading, failed, nothing found, or past the last page. */
export function SearchResults({ results, page, refused, helpTopic, onPage, now }: SearchResultsProps) {
  if (refused) return null;
  const pastTheEnd = (results.data?.count ?? 0) > 0 && page > 1;
  return (
    <ListState
      query={results}
      loadingLabel="Loading search results"
      loading={<SearchSkeleton />}
      errorTitle="Search failed"
      errorHint={GENERIC_SEARCH_FAILURE}
      isEmpty={(answer) => answer.results.length === 0}
      empty={
        pastTheEnd ? (
          <EmptyState title="No results on this page">
            <button type="button" className="button" onClick={() => onPage(1)}>
              Back to the first page
            </button>
          </EmptyState>
        ) : (
          <SearchEmpty topic={helpTopic} />
        )
      }
    >
      {({ results: hits, count }) => (
        <>
          <ResultList hits={hits} now={now} />
          <SearchPagination page={page} shown={hits.length} total={count} onPage={onPage} />
        </>
      )}
    </ListState>
  );
}
