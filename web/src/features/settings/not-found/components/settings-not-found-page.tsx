import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { SettingsNav } from '../../components/settings-nav';

/** The settings page every settings address without a page of its own leads back to. */
export const SETTINGS_HOME = '/settings/user-settings';

/**
 * The settings catch-all (/settings/{page}): an address under /settings with no page says so
 * among the settings tabs, shows the address, and leads back to User Settings.
 */
export function SettingsNotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card" aria-label="Settings page not found">
        <EmptyState title="There is no settings page at this address">
          <p className="not-found-address">
            <code>{pathname}</code>
          </p>
          <p>The link may be mistyped or out of date. The tabs above lead to every settings page.</p>
          <div className="empty-state-actions">
            <Link className="button button-primary" to={SETTINGS_HOME}>
              Go to User Settings
            </Link>
          </div>
        </EmptyState>
      </section>
    </div>
  );
}
