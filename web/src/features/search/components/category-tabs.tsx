import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { visibleTabs, type CategoryAnswer } from '../api/search-api';

export interface CategoryTabsProps {
  answer: CategoryAnswer;
  /** The chosen tab; null for All. */
  active: string | null;
  /** The address of the search with another tab chosen. */
  hrefFor: (tab: string | null) => string;
}

/** One tab per category the search found something in (All first), with counts (1000 or more as Nk). */
export function CategoryTabs({ answer, active, hrefFor }: CategoryTabsProps) {
  const tabs = [{ key: null, label: 'All', count: answer.count }, ...visibleTabs(answer.category_tabs)];
  return (
    <nav className="tabs" aria-label="Result categories">
      <ul className="tabs-list">
        {tabs.map((tab) => {
          const current = tab.key === active;
          return (
            <li key={tab.key ?? 'all'}>
              <Link
                to={hrefFor(tab.key)}
                className={`tab-link${current ? ' active' : ''}`}
                aria-current={current ? 'page' : undefined}
                data-testid="search-tab"
                data-key={tab.key ?? 'all'}
              >
                {tab.label}
                <span className="tab-count">
                  <span className="visually-hidden">, </span>
                  {formatCount(tab.count)}
                  <span className="visually-hidden">{tab.count === 1 ? ' result' : ' results'}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
