import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { completeOrganisationSignIn, readHandoff } from '../api/oidc-api';
import { AuthLayout } from './auth-layout';

type Outcome = 'pending' | 'refused' | 'failed';

/**
 * `/oauth/redirect`: where the server sends the browser after the organisation's identity
 * provider, with the session's token in the fragment. The token is taken out of the address (and
 * so out of history) before anything else, made this browser's session, and the person goes on to
 * the page they asked for.
 */
export function OAuthRedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [handoff] = useState(() => readHandoff(location.hash));
  const [outcome, setOutcome] = useState<Outcome>('pending');
  // Once per page, also under StrictMode's second effect run: the token is exchanged only once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    if (!handoff.token) return;
    completeOrganisationSignIn(handoff.token).then(
      () => navigate(handoff.redirect, { replace: true }),
      (error: unknown) => setOutcome(isApiError(error) && error.status === 401 ? 'refused' : 'failed'),
    );
  }, [handoff, location.pathname, location.search, navigate]);

  if (!handoff.token) {
    return (
      <Ending title="This sign-in link is incomplete">
        It carries no sign-in. Start again from the sign-in page.
      </Ending>
    );
  }
  if (outcome === 'refused') {
    return (
      <Ending title="This sign-in has ended">
        It was already used, or it expired. Sign in again to continue.
      </Ending>
    );
  }
  if (outcome === 'failed') {
    return <Ending title="We couldn't finish signing you in">Please try again in a moment.</Ending>;
  }
  return (
    <AuthLayout title="Signing you in" subtitle="Finishing your organisation's sign-in.">
      <div className="auth-handoff">
        <Spinner label="Signing you in" />
      </div>
    </AuthLayout>
  );
}

/** A handoff that cannot go on: why, and the way back to sign-in. */
function Ending({ title, children }: { title: string; children: string }) {
  return (
    <AuthLayout title={title} subtitle={children}>
      <div className="auth-handoff">
        <Link className="button button-primary" to="/auth/signin">
          Go to sign-in
        </Link>
      </div>
    </AuthLayout>
  );
}
