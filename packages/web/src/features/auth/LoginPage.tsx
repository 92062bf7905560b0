import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { LoadingState, Spinner } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AuthCard, TextField } from './AuthCard.tsx';
import { useCurrentUser, useLogin } from './api.ts';
import styles from './auth.module.css';
import { emptyFields, FILL_HIGHLIGHTED, serverMessage } from './form.ts';

export default function LoginPage() {
  usePageTitle('Login');
  const { user, isLoaded } = useCurrentUser();
  const login = useLogin();
  const [values, setValues] = useState({ user: '', password: '' });
  const [highlighted, setHighlighted] = useState(new Set<keyof typeof values>());
  const [error, setError] = useState<string | null>(null);

  if (!isLoaded) return <LoadingState />;
  if (user) return <Navigate to="/" replace />;

  const edit = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setHighlighted((h) => new Set([...h].filter((f) => f !== field)));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = emptyFields(values);
    setHighlighted(missing);
    if (missing.size > 0) {
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
          value={values.user}
          onChange={edit('user')}
          invalid={highlighted.has('user')}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          value={values.password}
          onChange={edit('password')}
          invalid={highlighted.has('password')}
          autoComplete="current-password"
          labelExtra={<Link to="/reset_password">Forgot password?</Link>}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className={`btn btn-primary ${styles.submit}`} disabled={login.isPending}>
          {login.isPending && <Spinner size={16} label="Logging in" />}
          Submit
        </button>
      </form>
      <p className={styles.alt}>
        New to Mesmer? <Link to="/signup">Create an account</Link>
      </p>
    </AuthCard>
  );
}
