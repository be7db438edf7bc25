import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { useMarkUnknownAddress } from '../shell/unknown-address';

/**
 * The page for an address the app does not have (the server answers it with 404): says so,
 * shows the address, and leads home; the shell around it keeps the navigation.
 */
export function NotFoundPage() {
  useMarkUnknownAddress();
  const { pathname } = useLocation();
  return (
    <EmptyState title="There is no page at this address">
      <p className="not-found-address">
        <code>{pathname}</code>
      </p>
      <p>The link may be mistyped or out of date, or the page may have moved.</p>
      <div className="empty-state-actions">
        <Link className="button button-primary" to="/">
          Go to the home page
        </Link>
        <Link className="button" to="/search">
          Search Needl
        </Link>
      </div>
    </EmptyState>
  );
}
