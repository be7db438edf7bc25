import { useSession } from '../../../lib/use-session';

/** Returns whether the signed-in user may read the audit log: administrators and auditors. */
export function useCanAudit(): boolean {
  const user = useSession().user;
  return Boolean(user && (user.is_admin || user.is_auditor));
}
