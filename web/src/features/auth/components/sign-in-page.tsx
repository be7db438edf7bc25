import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { TextField } from '../../../components/ui/text-field';
import { signIn } from '../../../lib/auth';
import { clearSignInNotice, readSignInNotice, type SignInNotice } from '../../../lib/sign-in-notice';
import { afterLoginTarget, variantOf } from '../../../lib/variant';
import { signInSchema } from '../auth-schemas';
import { useAuthForm } from '../hooks/use-auth-form';
import { useSsoError } from '../hooks/use-sso-error';
import { AuthLayout, ServerError } from './auth-layout';
import { OrganisationSignIn } from './organisation-sign-in';

/** What the sign-in page says about why the session ended, for the notices other pages leave it. */
const NOTICE_TEXT: Record<SignInNotice, string> = {
  account_erased:
    'Your account was erased: its name, email, password and comment texts are gone for good, and every session of it has ended.',
};

/** What the sign-in page says under its title, per variant (the pulse variant has its own page). */
const SUBTITLES = {
  default: 'Welcome back to your research workspace.',
  pulse: 'Sign in to Needl Pulse.',
} as const;

/**
 * The sign-in page of both variants (`/auth/signin`, `/pulse/auth/signin`); once signed in, it goes
 * where the address's variant goes after login.
 */
export function SignInPage() {
  const navigate = useNavigate();
  const variant = variantOf(useLocation().pathname);
  const home = afterLoginTarget(variant);
  // Shown while the page is open, forgotten at once, so a later visit does not say it again.
  const [notice] = useState(readSignInNotice);
  useEffect(() => clearSignInNotice(), []);
  const ssoError = useSsoError();
  const form = useAuthForm(signInSchema, async (values) => {
    await signIn(values);
    navigate(home, { replace: true });
  });

  return (
    <AuthLayout title="Sign in" subtitle={SUBTITLES[variant]}>
      {notice && (
        <p className="form-success auth-notice" role="status">
          {NOTICE_TEXT[notice]}
        </p>
      )}
      {ssoError && (
        <p className="form-error auth-notice" role="alert">
          {ssoError}
        </p>
      )}
      <form className="stack" noValidate onSubmit={form.handleSubmit} aria-label="Sign in">
        <TextField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={form.errors.password}
        />
        <p className="small">
          <Link to="/auth/forgot-password">Forgot password?</Link>
        </p>
        <ServerError message={form.serverError} />
        <button className="button button-primary" type="submit" disabled={form.pending}>
          {form.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <OrganisationSignIn home={home} />
      <p className="auth-switch">
        New to Needl? <Link to="/auth/platform-access">Create an account</Link>
      </p>
    </AuthLayout>
  );
}
