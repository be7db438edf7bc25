import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ArrowLeftIcon } from '../../components/ui/icons';
import { isSearchPath, SearchTitle } from '../../features/search';

/** The titles of the bare full pages other than the search (whose title is the query). */
const TITLES: Record<string, string> = { '/document': 'Document', '/image': 'Image' };

/**
 * Returns the way out of a full page: back where the reader came from, or to the app's root
 * (the landing route) when the page was opened directly (a new tab, a link from outside).
 */
export function useLeaveFullPage(): () => void {
  const navigate = useNavigate();
  const { key } = useLocation();
  return useCallback(() => void (key === 'default' ? navigate('/', { replace: true }) : navigate(-1)), [key, navigate]);
}

/** The bar over a bare full page (nav-routes.ts): the way back and the page's title. */
export function FullPageBar() {
  const { pathname } = useLocation();
  const leave = useLeaveFullPage();
  return (
    <header className="app-header full-page-bar">
      <button type="button" className="button button-quiet" onClick={leave}>
        <ArrowLeftIcon size={16} aria-hidden="true" /> Back
      </button>
      <div className="app-header-titles">
        {isSearchPath(pathname) ? <SearchTitle /> : <h1 className="page-title">{TITLES[pathname.replace(/(.)\/+$/, '$1')] ?? 'Needl'}</h1>}
      </div>
    </header>
  );
}
