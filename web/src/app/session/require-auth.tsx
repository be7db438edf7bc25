import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { SignInRequiredModal } from '../../features/auth';
import { consumeFirstLoadRedirect, isFirstLoadDone, saveRedirect, signedOutTarget } from '../../lib/redirect-storage';
import { useSession } from '../../lib/use-session';
import { afterLoginTarget, variantOf } from '../../lib/variant';

/**
 * Guards the protected routes. The auth check is undefined while a stored token is being verified
 * (spinner), true shows the app, false sends the visitor to sign-in after saving where they were going.
 */
export function RequireAuth() {
  const session = useSession();
  const authenticated = session.token ? (session.verified ? true : undefined) : false;

  if (session.expired) return <SignInRequiredModal />;
  if (authenticated === undefined) return <FullPageSpinner />;
  if (!authenticated) return <RedirectToSignIn saveAddress={!session.signedOut} />;
  return <FirstLoadRedirect />;
}

/** Sends the visitor to sign-in; after a deliberate sign-out the page they left is not saved. */
function RedirectToSignIn({ saveAddress }: { saveAddress: boolean }) {
  const location = useLocation();
  const [target] = useState(() => {
    if (saveAddress) saveRedirect(`${location.pathname}${location.search}${location.hash}`);
    return signedOutTarget(localStorage, location.pathname);
  });
  return <Navigate to={target} replace state={{ from: location }} />;
}

/** On the first authenticated load of the session, returns to the address saved before sign-in. */
function FirstLoadRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const [checked, setChecked] = useState(isFirstLoadDone);
  const ran = useRef(false);

  useEffect(() => {
    if (checked || ran.current) return;
    ran.current = true;
    const target = consumeFirstLoadRedirect();
    if (target && target !== `${location.pathname}${location.search}`) navigate(target, { replace: true });
    setChecked(true);
  }, [checked, location, navigate]);

  return checked ? <Outlet /> : <FullPageSpinner />;
}

/** Keeps signed-in users away from the sign-in and sign-up pages: they go where their variant goes after login. */
export function PublicOnly() {
  const session = useSession();
  const { pathname } = useLocation();
  if (session.token) return <Navigate to={afterLoginTarget(variantOf(pathname))} replace />;
  return <Outlet />;
}
