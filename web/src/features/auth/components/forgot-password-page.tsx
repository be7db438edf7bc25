import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { passwordQueries, requestReset, type ResetRequested } from '../api/password-api';
import { forgotSchema } from '../auth-schemas';
import { useAuthForm } from '../hooks/use-auth-form';
import { AuthLayout, ServerError } from './auth-layout';

/**
 * Asks for a reset link. What happens next depends on the server: with mail, a link is sent
 * (the page never says whether the address has an account); without, an administrator issues
 * links, and the page says so instead of offering a form that would send nothing.
 */
export function ForgotPasswordPage() {
  const options = useQuery(passwordQueries.resetOptions());
  const form = useAuthForm(forgotSchema, (values) => requestReset(values.email));
  const sent = form.data as ResetRequested | undefined;

  return (
    <AuthLayout title="Forgot your password?" subtitle="Set a new one with a one-time link.">
      {options.isPending ? (
        <Spinner label="Loading" />
      ) : options.data && !options.data.by_mail ? (
        <div className="stack" role="status">
          <p>This server sends no email, so no link can be mailed to you.</p>
          <p>
            Ask an administrator of your workspace for a reset link: they can copy one for you from{' '}
            <strong>Settings</strong>, <strong>Users</strong>. It works once, for {options.data.link_minutes} minutes.
          </p>
        </div>
      ) : sent ? (
        <p role="status" className="stack">
          If an account uses that address, an email with a link is on its way. The link works once, for{' '}
          {options.data?.link_minutes ?? 60} minutes. Check your spam folder if it does not arrive.
        </p>
      ) : (
        <form className="stack" noValidate onSubmit={form.handleSubmit} aria-label="Ask for a reset link">
          <p className="muted">
            Enter the email you sign in with. If it has an account, we email a link to choose a new password.
          </p>
          <TextField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
          <ServerError message={form.serverError ?? (options.isError ? 'How resets work here could not be loaded; try again.' : null)} />
          <button className="button button-primary" type="submit" disabled={form.pending}>
            {form.pending ? 'Sending…' : 'Email me a link'}
          </button>
        </form>
      )}
      <p className="auth-switch">
        Remembered it? <Link to="/auth/signin">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
