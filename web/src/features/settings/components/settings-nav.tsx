import { NavLink } from 'react-router';

const PAGES = [
  { to: '/settings/user-settings', label: 'User Settings' },
  { to: '/settings/storage', label: 'Storage' },
  { to: '/settings/manage-tags', label: 'Tags Manager' },
  { to: '/settings/contacts', label: 'Manage Contacts' },
  { to: '/settings/channels', label: 'Groups' },
  { to: '/settings/feeds', label: 'Feeds' },
] as const;

/** Tabs between the settings pages. */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="settings-nav">
      {PAGES.map((page) => (
        <NavLink key={page.to} to={page.to} className="settings-nav-link">
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}
