import { Link } from 'react-router';
import { useScopeNames } from '../hooks/use-scope-names';
import { useCorrectedQuery } from '../hooks/use-search';
import { useSearchState } from '../hooks/use-search-state';
import { locationLabel, searchHeading } from '../search-scope';

/**
 * The header of a search page: the query "in" where it looks. When the server corrected the
 * spelling, the corrected query is the header and the original a subheader that searches for
 * it as typed.
 */
export function SearchTitle() {
  const { scope, state, hrefFor } = useSearchState();
  const names = useScopeNames(scope, state.boardId ?? state.channelId);
  const corrected = useCorrectedQuery(scope, state);
  if (!state.q) return <h1 className="page-title">Search</h1>;
  const where = locationLabel(state, scope, names);
  return (
    <>
      <h1 className="page-title" data-testid="search-heading">
        {searchHeading(corrected ?? state.q, where)}
      </h1>
      {corrected && (
        <p className="page-subtitle small muted" data-testid="search-subheading">
          Showing results for “{corrected}”. Search instead for{' '}
          <Link to={hrefFor({ spellCorrect: false })} data-testid="search-original">
            “{state.q}”
          </Link>
        </p>
      )}
    </>
  );
}
