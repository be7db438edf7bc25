import { useLocation } from 'react-router';
import { lazyPage } from '../lazy-page';
import { useMarkUnknownAddress } from '../shell/unknown-address';
import { NotFoundPage } from './not-found-page';

const SettingsNotFoundPage = lazyPage('Loading settings', () =>
  import('../../features/settings/not-found/pages').then((m) => m.SettingsNotFoundPage),
);

/** An unknown address under /settings: the settings feature's catch-all, marked unknown for the shell. */
function UnknownSettingsPage() {
  useMarkUnknownAddress();
  return <SettingsNotFoundPage />;
}

/**
 * The page for an address the router has no route for. The spec's settings catch-all
 * (/settings/{page}) is decided here rather than by a route of its own, so the server, which
 * answers only the listed routes with 200 (app-routes.txt), still answers such an address 404.
 */
export function UnknownPage() {
  const { pathname } = useLocation();
  return pathname.startsWith('/settings/') ? <UnknownSettingsPage /> : <NotFoundPage />;
}
