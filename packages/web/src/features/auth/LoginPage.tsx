import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { useCurrentUser, useLogin } from '../../api/auth.ts';
import { ApiError } from '../../lib/api-client.ts';
import { FormError, LoadingState, SubmitButton } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AuthCard, TextField } from './AuthCard.tsx';
import styles from './auth.module.css';
import { FILL_HIGHLIGHTED, serverMessage, useRequiredFields } from './form.ts';

export default function LoginPage() {
  usePageTitle('Login');
  const { user, isLoaded } = useCurrentUser();
  const login = useLogin();
  const { values, fieldProps, requireFilled } = useRequiredFields({ user: '', password: '' });
  const [error, setError] = useState<string | null>(null);

  if (!isLoaded) return <LoadingState />;
  if (user) return <Navigate to="/" replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!requireFilled()) {
      setError(FILL_HIGHLIGHTED);
      return;
    }
    setError(null);
    login.mutate(
      { user: values.user.trim(), password: values.password },
      {
        onError: (err) =>
          setError(
            err instanceof ApiError && (err.status === 401 || err.status === 400)
              ? 'Your username or password is incorrect.'
              : serverMessage(err),
          ),
      },
    );
  };

  return (
    <AuthCard
      icon={<LogIn size={24} />}
      title="Login"
      subtitle="Welcome back. Settle in and pick up where you left off."
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Username"
          {...fieldProps('user')}
          maxLength={TEXT_LIMITS.email}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          {...fieldProps('password')}
          maxLength={TEXT_LIMITS.password}
          autoComplete="current-password"
          labelExtra={<Link to="/reset_password">Forgot password?</Link>}
        />
        <FormError message={error} />
        <SubmitButton pending={login.isPending} pendingLabel="Logging in" className={styles.submit}>
          Submit
        </SubmitButton>
      </form>
      <p className={styles.alt}>
        New to Mesmer? <Link to="/signup">Create an account</Link>
      </p>
    </AuthCard>
  );
}
