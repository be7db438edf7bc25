import { Link, useSearchParams } from 'react-router';
import { TextField } from '../../../components/ui/text-field';
import { broadcastAuth } from '../../../lib/auth-channel';
import { sessionStore } from '../../../lib/session-store';
import { completeReset } from '../api/password-api';
import { PASSWORD_MIN_LENGTH, resetSchema } from '../auth-schemas';
import { useAuthForm } from '../hooks/use-auth-form';
import { AuthLayout, ServerError } from './auth-layout';

/**
 * The page a reset link opens (`/reset-password?token=…`): choose a new password. Setting it
 * ends every session of the account, so a browser signed in here is signed out too.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const form = useAuthForm(resetSchema, async (values) => {
    await completeReset(token, values.password);
    if (sessionStore.get().token) {
      sessionStore.signOut();
      broadcastAuth({ type: 'logout' });
    }
  });

  if (!token) {
    return (
      <AuthLayout title="Reset your password" subtitle="This page needs the link from your email or administrator.">
        <p role="alert" className="form-error">
          This address has no reset token. Open the whole link you were given, or ask for a new one.
        </p>
        <p className="auth-switch">
          <Link to="/auth/forgot-password">Ask for a new link</Link>
        </p>
      </AuthLayout>
    );
  }

  if (form.succeeded) {
    return (
      <AuthLayout title="Password changed" subtitle="Your new password is set.">
        <p role="status">You were signed out everywhere. Sign in with your new password.</p>
        <p className="auth-switch">
          <Link to="/auth/signin">Sign in</Link>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="At least 8 characters, and not easy to guess.">
      <form className="stack" noValidate onSubmit={form.handleSubmit} aria-label="Choose a new password">
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          error={form.errors.password}
        />
        <TextField
          label="Repeat the new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          error={form.errors.confirm}
        />
        <ServerError message={form.serverError} />
        {form.errorCode === 'reset_link_invalid' && (
          <p className="small">
            <Link to="/auth/forgot-password">Ask for a new link</Link>
          </p>
        )}
        <button className="button button-primary" type="submit" disabled={form.pending}>
          {form.pending ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </AuthLayout>
  );
}
