import { Link, Navigate, useSearchParams } from 'react-router';
import { sameAppPath } from '../../lib/app-paths';
import { useSession } from '../../lib/use-session';

/**
 * /extension: where the browser extension sends the user to sign in. A signed-out visitor goes
 * to sign-in first and comes back here (the protected routes save the address); signed in, the
 * page says so and that the tab may be closed, or goes on to `redirect=` when that names one of
 * the app's own pages (never another site).
 */
export function ExtensionPage() {
  const [params] = useSearchParams();
  const { user } = useSession();
  const next = sameAppPath(params.get('redirect'));
  if (next) return <Navigate to={next} replace />;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">N</span> Needl
        </div>
        <h1 className="auth-title">You’re signed in</h1>
        <p className="muted">
          {user ? `Signed in to Needl as ${user.email_id}. ` : ''}The browser extension can use Needl now: you can close
          this tab.
        </p>
        <p className="auth-switch">
          <Link to="/home">Open Needl</Link>
        </p>
      </div>
    </main>
  );
}
