import { Link, useNavigate } from 'react-router';
import { TextField } from '../../../components/ui/text-field';
import { signIn } from '../../../lib/auth';
import { signInSchema } from '../auth-schemas';
import { useAuthForm } from '../hooks/use-auth-form';
import { AuthLayout, ServerError } from './auth-layout';

export function SignInPage() {
  const navigate = useNavigate();
  const form = useAuthForm(signInSchema, async (values) => {
    await signIn(values);
    navigate('/', { replace: true });
  });

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back to your research workspace.">
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
      <p className="auth-switch">
        New to Needl? <Link to="/auth/platform-access">Create an account</Link>
      </p>
    </AuthLayout>
  );
}
