import { useRef } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { visibleTabs } from '../api/search-api';
import { helpTopicFor } from '../help-links';
import { useScopeNames } from '../hooks/use-scope-names';
import { useSearch } from '../hooks/use-search';
import { useSearchState } from '../hooks/use-search-state';
import { locationLabel } from '../search-scope';
import { CategoryTabs } from './category-tabs';
import { SearchControls } from './search-controls';
import { SearchQueryBar } from './search-query-bar';
import { SearchResults } from './search-results';

/**
 * /search, /search/{subCategory}, /search/today and /search/{source}: the search box, the
 * category tabs, sort and date range, and a page of results. Everything it shows follows from
 * the address (see `search-state.ts`), so back, forward and shared links give the same search.
 */
export function SearchPage({ now }: { now?: Date } = {}) {
  const { scope, state, hrefFor, update, searchIn } = useSearchState();
  const { categories, results, refusal } = useSearch(scope, state);
  const names = useScopeNames(scope, state.boardId ?? state.channelId);
  const resultsRegion = useRef<HTMLElement>(null);
  const activeTab = categories.data?.category_tabs.find((tab) => tab.key === state.categoryTab);

  const turnPage = (page: number) => {
    update({ page });
    resultsRegion.current?.focus({ preventScroll: true });
    resultsRegion.current?.scrollIntoView?.({ block: 'start' });
  };

  return (
    <div className="page-narrow search-page stack">
      <SearchQueryBar scope={scope} state={state} here={locationLabel(state, scope, names)} error={refusal} onSearch={searchIn} />
      {!state.q ? (
        <SearchIntro />
      ) : (
        !refusal && (
          <>
            {categories.isPending && <div className="tabs tabs-loading" aria-hidden="true" />}
            {categories.isSuccess && visibleTabs(categories.data.category_tabs).length > 0 && (
              <CategoryTabs answer={categories.data} active={state.categoryTab} hrefFor={(categoryTab) => hrefFor({ categoryTab })} />
            )}
            <SearchControls state={state} onChange={update} now={now} />
            <section ref={resultsRegion} className="search-results-region" aria-label="Search results" tabIndex={-1}>
              <SearchResults
                results={results}
                page={state.page}
                refused={Boolean(refusal)}
                helpTopic={helpTopicFor(activeTab?.data?.sub_category, state.categoryTab, scope)}
                onPage={turnPage}
                now={now}
              />
            </section>
          </>
        )
      )}
    </div>
  );
}

/** What an empty search page says: what to type. */
function SearchIntro() {
  return (
    <EmptyState title="Search your data">
      <p>
        Type words to find, “quotes” for a phrase, AND, OR and NOT to combine them, and parentheses to group. Press / to
        come back to the box.
      </p>
    </EmptyState>
  );
}
