import type { KeyboardEvent } from 'react';
import { CardScopeProvider } from '../../../lib/card-details';
import type { SearchHit } from '../api/search-api';
import { useSearchState } from '../hooks/use-search-state';
import { ResultCard } from './result-card';

const WEB_RESULT = { webResult: true };
const MY_DATA = {};

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowDown: (i, last) => Math.min(last, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_, last) => last,
};

/**
 * A page of results. From a result's title, ↓ and ↑ move to the next and previous result, Home
 * and End to the first and last (Tab still goes through everything). Needl Web results are not
 * the user's data: the cards are told so, and show no bookmark or tags.
 */
export function ResultList({ hits, now }: { hits: SearchHit[]; now?: Date }) {
  const { scope, state } = useSearchState();
  const webResults = state.searchType === 'needl_web' || scope === 'needl_web' || scope === 'needlweb';
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const move = MOVES[event.key];
    const target = event.target as HTMLElement;
    if (!move || !target.hasAttribute('data-result-link')) return;
    const links = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[data-result-link]'));
    const at = links.indexOf(target);
    if (at < 0) return;
    event.preventDefault();
    links[move(at, links.length - 1)]?.focus();
  };
  return (
    <CardScopeProvider value={webResults ? WEB_RESULT : MY_DATA}>
      <ol className="search-results doc-list" onKeyDown={onKeyDown}>
        {hits.map((hit) => (
          <li key={hit.deeplink}>
            <ResultCard hit={hit} now={now} />
          </li>
        ))}
      </ol>
    </CardScopeProvider>
  );
}
