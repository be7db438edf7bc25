import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
import { catalogueQueries } from '../api/catalogue-api';
import { EMPTY_FILTER, filterParams, groupsOf, readFilter, type CatalogueFilter } from '../catalogue-filter';
import { CatalogueFilters } from './catalogue-filters';
import { CatalogueList } from './catalogue-list';

/**
 * /connect/public: the instance's public source catalogue (`GET /source/public`) to search,
 * narrow by group, followed or not and fetched here, and follow one at a time or several at once.
 */
export function CataloguePage() {
  const catalogue = useQuery(catalogueQueries.list());
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readFilter(params), [params]);
  const groups = useMemo(() => groupsOf(catalogue.data?.results ?? []), [catalogue.data]);
  // Typing replaces the address rather than adding a step to Back for each letter.
  const setFilter = (next: CatalogueFilter) => setParams(filterParams(next), { replace: true });

  return (
    <div className="page-narrow stack-lg">
      <p className="muted">
        Exchange filings, annual reports, conference calls and the other public sources this instance offers. Follow one
        this instance fetches and its new items arrive in My Data under Exchanges. A US company’s 10-K, 10-Q and 8-K?{' '}
        <Link to="/connect/edgar">Follow a US company's SEC filings</Link>. Reading news?{' '}
        <Link to="/connect/rssTopics">Browse suggested feeds</Link>.
      </p>
      <ListState
        query={catalogue}
        loadingLabel="Loading public sources"
        errorTitle="The public sources could not be loaded"
        isEmpty={(data) => data.results.length === 0}
        emptyTitle="This instance offers no public sources"
        emptyHint={<p>The operator lists them in a catalogue file (the server's --catalogue option).</p>}
      >
        {(data) => (
          <>
            <CatalogueFilters filter={filter} groups={groups} onChange={setFilter} />
            <CatalogueList sources={data.results} filter={filter} onClearFilter={() => setFilter(EMPTY_FILTER)} />
          </>
        )}
      </ListState>
    </div>
  );
}
