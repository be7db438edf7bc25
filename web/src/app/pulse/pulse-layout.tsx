import { useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { signOut } from '../../lib/auth';
import { useSession } from '../../lib/use-session';
import { afterLogoutTarget, PULSE_PATHS } from '../../lib/variant';
import { ErrorBoundary } from '../error-screen';
import './pulse.css';

/**
 * The pulse variant's signed-in layout, phone first: a header with the product's name, the
 * user's name and Sign out (which goes to the pulse sign-in), two links (profile, portfolio) and
 * the page. No side navigation, search or assistant: pulse is the profile, its WhatsApp number
 * and the portfolio.
 */
export function PulseLayout() {
  const { pathname } = useLocation();
  const user = useSession().user;
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const handleSignOut = async () => {
    setSigningOut(true);
    await signOut();
    navigate(afterLogoutTarget('pulse'), { replace: true });
  };

  return (
    <div className="pulse">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="pulse-header">
        <Link to={PULSE_PATHS.profile} className="brand pulse-brand">
          <span className="brand-mark" aria-hidden="true">
            N
          </span>
          Needl Pulse
        </Link>
        <div className="pulse-account">
          {user && (
            <span className="pulse-user" data-testid="pulse-user" title={user.email_id}>
              {user.username}
            </span>
          )}
          <button type="button" className="button button-quiet" onClick={handleSignOut} disabled={signingOut}>
            {signingOut ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
        <nav aria-label="Pulse" className="pulse-nav">
          <NavLink to={PULSE_PATHS.profile} className="pulse-nav-link">
            Profile
          </NavLink>
          <NavLink to={PULSE_PATHS.portfolio} className="pulse-nav-link">
            Portfolio
          </NavLink>
        </nav>
      </header>
      <main id="main" className="pulse-main" tabIndex={-1}>
        <ErrorBoundary key={pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </div>
  );
}
