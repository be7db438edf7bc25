import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { useChannelLabels } from '../../features/channels';
import { useDocumentLabels } from '../../features/documents';
import { useFeedLabels } from '../../features/feeds';
import { NotificationBell } from '../../features/notifications';
import { HeaderSearch, isSearchPath, SearchTitle } from '../../features/search';
import { UploadIndicator } from '../../features/uploads';
import { pageTitle } from '../../lib/breadcrumbs';
import type { LiveStatus } from '../session/use-live-updates';
import { Breadcrumbs } from './breadcrumbs';
import { NavToggle } from './side-nav';
import { useShowsSideNav, useUnknownAddress } from './unknown-address';

/** The title of an address the app has no page for. */
export const NOT_FOUND_TITLE = 'Page not found';

/**
 * The shell's header: navigation toggle, breadcrumbs and the page's title (a search page's is the
 * query "in" where it looks), the search box (the search page has its own), uploads, live status.
 */
export function Header({ liveStatus }: { liveStatus: LiveStatus }) {
  const { pathname } = useLocation();
  const searching = isSearchPath(pathname);
  const channelLabels = useChannelLabels();
  const feedLabels = useFeedLabels();
  const labels = useMemo(() => ({ ...channelLabels, ...feedLabels }), [channelLabels, feedLabels]);
  // Only the trail names the document: the page's own heading is its title already.
  const documentLabels = useDocumentLabels();
  const withNav = useShowsSideNav();
  const unknown = useUnknownAddress();
  return (
    <header className="app-header">
      {withNav && <NavToggle />}
      <div className="app-header-titles">
        <Breadcrumbs labels={{ ...labels, ...documentLabels }} current={unknown ? NOT_FOUND_TITLE : undefined} />
        {searching && !unknown ? <SearchTitle /> : <h1 className="page-title">{unknown ? NOT_FOUND_TITLE : pageTitle(pathname, labels)}</h1>}
      </div>
      <div className="app-header-actions">
        {!searching && <HeaderSearch />}
        <UploadIndicator />
        <NotificationBell />
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
