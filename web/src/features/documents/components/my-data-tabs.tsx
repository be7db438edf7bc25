import { NavLink, useLocation } from 'react-router';
import { formatCount } from '../../../lib/format';
import { carryOverlayParams } from '../../../lib/overlay/overlay-params';
import { useMyDataTabs } from '../hooks/use-my-data-tabs';

/** What a tab counts, for screen readers: notes in the Notes tab, documents elsewhere. */
const countNoun = (key: string, count: number) => {
  const noun = key === 'notes' ? 'note' : 'document';
  return count === 1 ? ` ${noun}` : ` ${noun}s`;
};

/**
 * My Data's tabs, one per sub-category the server lists, in its order and with its labels,
 * each with how many documents it holds (1000 or more as Nk). Those with no connected source
 * are muted, and say so to screen readers.
 */
export function MyDataTabs() {
  const { categories, tabs } = useMyDataTabs();
  const { search } = useLocation();
  if (categories.isPending) return <div className="tabs tabs-loading" aria-hidden="true" />;
  if (tabs.length === 0) return null;
  return (
    <nav className="tabs" aria-label="My Data sources">
      <ul className="tabs-list">
        {tabs.map((tab) => (
          <li key={tab.key}>
            <NavLink
              to={carryOverlayParams(`/feeds/home/${tab.key}`, search)}
              className={`tab-link${tab.connected ? '' : ' tab-link-idle'}`}
              data-testid="my-data-tab"
              data-key={tab.key}
              data-connected={tab.connected}
            >
              {tab.label}
              <span className="tab-count">
                <span className="visually-hidden">, </span>
                {formatCount(tab.count)}
                <span className="visually-hidden">{countNoun(tab.key, tab.count)}</span>
              </span>
              {!tab.connected && <span className="visually-hidden">, not connected</span>}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
