import { NavLink } from 'react-router';
import { useSession } from '../../../lib/use-session';

const PAGES = [
  { to: '/settings/user-settings', label: 'User Settings' },
  { to: '/settings/storage', label: 'Storage' },
  { to: '/settings/plan', label: 'Plan' },
  { to: '/settings/portfolios', label: 'Portfolios' },
  { to: '/settings/manage-tags', label: 'Tags Manager' },
  { to: '/settings/contacts', label: 'Manage Contacts' },
  { to: '/settings/channels', label: 'Groups' },
  { to: '/settings/feeds', label: 'Feeds' },
] as const;

/** Administrators' pages. */
const ADMIN_PAGES = [
  { to: '/settings/users', label: 'Users' },
  { to: '/settings/assistant', label: 'Assistant' },
  { to: '/settings/outbox', label: 'Outbox' },
] as const;

/** The audit log (the audit feature's page), for administrators and auditors. */
const AUDIT_PAGE = { to: '/settings/audit', label: 'Audit log' } as const;

/** Tabs between the settings pages. */
export function SettingsNav() {
  const user = useSession().user;
  const admin = user?.is_admin ?? false;
  const auditor = admin || (user?.is_auditor ?? false);
  return (
    <nav aria-label="Settings" className="settings-nav">
      {[...PAGES, ...(admin ? ADMIN_PAGES : []), ...(auditor ? [AUDIT_PAGE] : [])].map((page) => (
        <NavLink key={page.to} to={page.to} className="settings-nav-link">
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}
