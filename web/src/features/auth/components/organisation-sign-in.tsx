import { useQuery } from '@tanstack/react-query';
import { beginOrganisationSignIn, oidcQueries } from '../api/oidc-api';

/** Leaves the app for `url` with a full page load (the server answers with a redirect). */
const leavePage = (url: string) => window.location.assign(url);

/**
 * "Sign in with {label}", below the email form, when the server has an identity provider set
 * up; nothing otherwise (or while the server has not said). `home` is where it comes back to when
 * no address was saved before sign-in; `leave` is replaced in tests.
 */
export function OrganisationSignIn({ home = '/', leave = leavePage }: { home?: string; leave?: (url: string) => void }) {
  const config = useQuery(oidcQueries.config());
  if (!config.data?.enabled) return null;
  const label = config.data.label?.trim() || 'your organisation';

  return (
    <div className="auth-alternative">
      <p className="auth-divider" aria-hidden="true">
        <span>or</span>
      </p>
      <button type="button" className="button auth-sso-button" onClick={() => leave(beginOrganisationSignIn(localStorage, sessionStorage, home))}>
        Sign in with {label}
      </button>
    </div>
  );
}
