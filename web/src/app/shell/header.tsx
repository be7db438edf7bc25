import { Link, useLocation } from 'react-router';
import { UploadIndicator } from '../../features/uploads';
import { pageTitle } from '../../lib/breadcrumbs';
import type { LiveStatus } from '../session/use-live-updates';
import { showsSideNav } from '../nav-routes';
import { Breadcrumbs } from './breadcrumbs';
import { NavToggle } from './side-nav';

export function Header({ liveStatus }: { liveStatus: LiveStatus }) {
  const { pathname } = useLocation();
  return (
    <header className="app-header">
      {showsSideNav(pathname) && <NavToggle />}
      <div className="app-header-titles">
        <Breadcrumbs />
        <h1 className="page-title">{pageTitle(pathname)}</h1>
      </div>
      <div className="app-header-actions">
        <UploadIndicator />
        <span
          className={`live-dot live-${liveStatus}`}
          data-testid="live-status"
          data-status={liveStatus}
          title={liveStatus === 'open' ? 'Live updates on' : 'Live updates reconnecting'}
        >
          <span className="visually-hidden">{liveStatus === 'open' ? 'Live updates on' : 'Live updates reconnecting'}</span>
        </span>
        <Link className="button button-quiet" to="/settings/user-settings">
          Settings
        </Link>
      </div>
    </header>
  );
}
