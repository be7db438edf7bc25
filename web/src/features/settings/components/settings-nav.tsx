import { NavLink } from 'react-router';
import { useSession } from '../../../lib/use-session';

const PAGES = [
  { to: '/settings/user-settings', label: 'User Settings' },
  { to: '/settings/storage', label: 'Storage' },
  { to: '/settings/manage-tags', label: 'Tags Manager' },
  { to: '/settings/contacts', label: 'Manage Contacts' },
  { to: '/settings/channels', label: 'Groups' },
  { to: '/settings/feeds', label: 'Feeds' },
] as const;

/** Pages only administrators have. */
const ADMIN_PAGES = [{ to: '/settings/assistant', label: 'Assistant' }] as const;

/** Tabs between the settings pages. */
export function SettingsNav() {
  const isAdmin = Boolean(useSession().user?.is_admin);
  return (
    <nav aria-label="Settings" className="settings-nav">
      {[...PAGES, ...(isAdmin ? ADMIN_PAGES : [])].map((page) => (
        <NavLink key={page.to} to={page.to} className="settings-nav-link">
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}
