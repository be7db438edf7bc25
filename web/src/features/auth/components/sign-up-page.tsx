import { Link, useNavigate } from 'react-router';
import { TextField } from '../../../components/ui/text-field';
import { signUp } from '../../../lib/auth';
import { PASSWORD_MIN_LENGTH, signUpSchema } from '../auth-schemas';
import { useAuthForm } from '../hooks/use-auth-form';
import { AuthLayout, ServerError } from './auth-layout';

export function SignUpPage() {
  const navigate = useNavigate();
  const form = useAuthForm(signUpSchema, async (values) => {
    await signUp(values);
    navigate('/', { replace: true });
  });

  return (
    <AuthLayout title="Create your account" subtitle="Get access to the Needl platform.">
      <form className="stack" noValidate onSubmit={form.handleSubmit} aria-label="Create account">
        <TextField label="Username" name="username" autoComplete="username" error={form.errors.username} />
        <TextField label="Email" name="email" type="email" autoComplete="email" error={form.errors.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          error={form.errors.password}
        />
        <ServerError message={form.serverError} />
        <button className="button button-primary" type="submit" disabled={form.pending}>
          {form.pending ? 'Creating account…' : 'Create account'}
        </button>
      </form>
      <p className="auth-switch">
        Already have an account? <Link to="/auth/signin">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
