import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../lib/use-session';
import { syncVariant } from '../../lib/variant';

/** Notes the variant of each address the app goes to (lib/variant's `appType`); renders nothing. */
export function VariantSync() {
  const { pathname } = useLocation();
  const signedIn = Boolean(useSession().token);
  useEffect(() => syncVariant(pathname, signedIn), [pathname, signedIn]);
  return null;
}
