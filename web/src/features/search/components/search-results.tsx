import type { UseQueryResult } from '@tanstack/react-query';
import { EmptyState } from '../../../components/ui/empty-state';
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
  if (results.isPending) return <SearchSkeleton />;
  if (results.isError) {
    return (
      <EmptyState title="Search failed">
        <p>{GENERIC_SEARCH_FAILURE}</p>
        <button type="button" className="button" onClick={() => void results.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  const { results: hits, count } = results.data;
  if (hits.length === 0 && count > 0 && page > 1) {
    return (
      <EmptyState title="No results on this page">
        <button type="button" className="button" onClick={() => onPage(1)}>
          Back to the first page
        </button>
      </EmptyState>
    );
  }
  if (hits.length === 0) return <SearchEmpty topic={helpTopic} />;
  return (
    <>
      <ResultList hits={hits} now={now} />
      <SearchPagination page={page} shown={hits.length} total={count} onPage={onPage} />
    </>
  );
}
