import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { pageTitle } from '../../lib/breadcrumbs';

/** Stands in for the pages later releases bring, so no protected route is ever blank. */
export function ComingSoonPage() {
  const { pathname } = useLocation();
  return (
    <EmptyState title={`${pageTitle(pathname)} is coming soon`}>
      <p>This part of Needl is still being built. Your data and settings are safe in the meantime.</p>
      <p>
        <Link to="/settings/user-settings">Open your settings</Link>
      </p>
    </EmptyState>
  );
}
