import { Navigate } from 'react-router';
import { useSession } from '../../lib/use-session';
import { PULSE_PATHS } from '../../lib/variant';

/** /pulse: the profile page when signed in, else the pulse sign-in. */
export function PulseIndex() {
  const signedIn = Boolean(useSession().token);
  return <Navigate to={signedIn ? PULSE_PATHS.profile : PULSE_PATHS.signIn} replace />;
}
