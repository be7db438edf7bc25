import { NavLink } from 'react-router';

/** A row of tabs between pages; `end` tabs are active only on their exact address. */
export function ViewTabs({ label, tabs }: { label: string; tabs: ReadonlyArray<{ to: string; label: string; end?: boolean }> }) {
  return (
    <nav className="tabs" aria-label={label}>
      <ul className="tabs-list">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink end={tab.end} to={tab.to} className="tab-link">
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
