import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { copyText } from '../../../lib/clipboard';
import { useSession } from '../../../lib/use-session';
import { adminQueries, issueResetLink, type AdminUser } from '../api/account-api';
import { EraseUserDialog } from './erase-user-dialog';
import { SettingsNav } from './settings-nav';
import { UserPlanSelect } from './user-plan-select';

/**
 * The instance's users, for administrators: who they are, their plan, a reset link for each, and
 * Erase for everyone but the administrator themselves (their own account is erased from User
 * Settings).
 */
export function UsersPage() {
  const session = useSession().user;
  const admin = session?.is_admin ?? false;
  const users = useQuery({ ...adminQueries.users(), enabled: admin });
  const [erasing, setErasing] = useState<AdminUser | null>(null);
  // Where focus goes once an erased user's row (and the button that opened the dialog) is gone.
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <div className="page-narrow stack-lg">
      <SettingsNav />
      <section className="card stack" aria-labelledby="users-heading">
        <h2 id="users-heading" ref={heading} className="card-title" tabIndex={-1}>
          Users
        </h2>
        {!admin ? (
          <p className="muted">Only administrators manage users.</p>
        ) : (
          <>
            <p className="small muted">
              Someone who forgot their password can ask you for a reset link. Copy it here and send it to them yourself;
              it works once.
            </p>
            <ListState query={users} loadingLabel="Loading users" errorTitle="Users could not be loaded">
              {(list) => (
                <ul className="stack" aria-label="Users">
                  {list.map((user) => (
                    <UserRow
                      key={user.id}
                      user={user}
                      self={user.id === session?.id}
                      onErase={() => setErasing(user)}
                    />
                  ))}
                </ul>
              )}
            </ListState>
          </>
        )}
        {erasing && (
          <EraseUserDialog
            user={erasing}
            onClose={() => setErasing(null)}
            onErased={() => {
              setErasing(null);
              heading.current?.focus();
            }}
          />
        )}
      </section>
    </div>
  );
}

interface UserRowProps {
  user: AdminUser;
  /** The administrator's own row, which offers no Erase. */
  self: boolean;
  onErase: () => void;
}

function UserRow({ user, self, onErase }: UserRowProps) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const issue = useMutation({
    mutationFn: () => issueResetLink(user.id),
    meta: { toast: false },
    onSuccess: async (link) => {
      try {
        await copyText(`${window.location.origin}${link.path}`);
        setCopied(true);
      } catch {
        setCopied(false);
      }
    },
  });
  const link = issue.data ? `${window.location.origin}${issue.data.path}` : null;
  const until = issue.data ? new Date(issue.data.expires_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '';
  const roles = [user.is_admin && 'administrator', user.is_auditor && 'auditor', user.is_analyst && 'analyst'].filter(Boolean).join(', ');

  return (
    <li className="stack-sm" aria-label={user.username}>
      <div>
        <strong>{user.username}</strong>
        {self && <span className="small muted"> (you)</span>} <span className="small muted">{user.email_id}</span>
        {roles && <span className="small muted"> — {roles}</span>}
      </div>
      <div className="user-row-actions">
        <UserPlanSelect user={user} />
        <button type="button" className="button" disabled={issue.isPending} onClick={() => issue.mutate()}>
          {issue.isPending ? 'Issuing…' : 'Copy reset link'}
        </button>
        {!self && (
          <button type="button" className="button button-danger-text" aria-label={`Erase ${user.username}`} onClick={onErase}>
            Erase
          </button>
        )}
      </div>
      {issue.error && (
        <p className="form-error" role="alert">
          {issue.error.message}
        </p>
      )}
      {link && (
        <div className="field">
          <label className="field-label" htmlFor={`reset-link-${user.id}`}>
            Reset link for {user.username}
          </label>
          <input id={`reset-link-${user.id}`} className="input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          <p className="small" role="status">
            {copied ? 'Copied. ' : 'Copy it from the field. '}
            It works once, until {until}, and replaces any earlier link. Send it to {user.username} yourself.
          </p>
        </div>
      )}
    </li>
  );
}
