import { email as emailSchema, password as passwordSchema } from '@mesmer/shared/api/credentials';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { isValidUsername, USERNAME_RULE_MESSAGE } from '@mesmer/shared/domain/username';
import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useCurrentUser, useRegister } from '../../api/auth.ts';
import { ApiError } from '../../lib/api-client.ts';
import { FormError, LoadingState, SubmitButton, toast } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AuthCard, TextField } from './AuthCard.tsx';
import styles from './auth.module.css';
import { FILL_HIGHLIGHTED, serverMessage, useRequiredFields } from './form.ts';

type Field = 'user' | 'email' | 'password';
const INVALID_EMAIL = 'Please enter a valid e-mail address.';
const IN_USE = 'The username or email you entered is already in use.';

/** The first rule the filled-in form breaks, checked before asking the server. */
function firstProblem(values: Record<Field, string>): { field: Field; message: string } | null {
  if (!isValidUsername(values.user.trim())) return { field: 'user', message: USERNAME_RULE_MESSAGE };
  if (!emailSchema.safeParse(values.email.trim()).success) return { field: 'email', message: INVALID_EMAIL };
  const password = passwordSchema.safeParse(values.password);
  if (!password.success) return { field: 'password', message: password.error.issues[0].message };
  return null;
}

/** What a failed register call means to the visitor: 400 names the field, 409 a taken name or address. */
function registerProblem(err: unknown): { field?: Field; message: string } {
  if (!(err instanceof ApiError)) return { message: serverMessage(err) };
  if (err.status === 409) return { message: IN_USE };
  if (err.status === 400) {
    if (err.field === 'email') return { field: 'email', message: INVALID_EMAIL };
    if (err.field === 'password') return { field: 'password', message: serverMessage(err) };
    return { field: 'user', message: USERNAME_RULE_MESSAGE };
  }
  return { message: serverMessage(err) };
}

export default function SignupPage() {
  usePageTitle('Create Account');
  const { user, isLoaded } = useCurrentUser();
  const register = useRegister();
  const navigate = useNavigate();
  const { values, fieldProps, highlight, requireFilled } = useRequiredFields<Field>({
    user: '',
    email: '',
    password: '',
  });
  const [error, setError] = useState<string | null>(null);

  if (!isLoaded) return <LoadingState />;
  if (user) return <Navigate to="/account" replace />;

  const fail = (problem: { field?: Field; message: string }) => {
    highlight(problem.field ? [problem.field] : []);
    setError(problem.message);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!requireFilled()) {
      setError(FILL_HIGHLIGHTED);
      return;
    }
    const problem = firstProblem(values);
    if (problem) return fail(problem);
    setError(null);
    const email = values.email.trim();
    register.mutate(
      { user: values.user.trim(), email, password: values.password },
      {
        onSuccess: () => {
          toast(
            'success',
            'Welcome to Mesmer!',
            `Check your e-mail: we sent a verification link to ${email}.`,
            'long',
          );
          navigate('/account', { replace: true });
        },
        onError: (err) => fail(registerProblem(err)),
      },
    );
  };

  return (
    <AuthCard
      icon={<UserPlus size={24} />}
      title="Create Account"
      subtitle="Save playlists, earn points and follow training plans."
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Username"
          {...fieldProps('user')}
          maxLength={TEXT_LIMITS.username}
          autoComplete="username"
          autoFocus
          hint="3 to 20 letters, numbers, underscores, hyphens or periods."
        />
        <TextField
          label="E-mail"
          type="email"
          {...fieldProps('email')}
          maxLength={TEXT_LIMITS.email}
          autoComplete="email"
        />
        <TextField
          label="Password"
          type="password"
          {...fieldProps('password')}
          maxLength={TEXT_LIMITS.password}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <FormError message={error} />
        <SubmitButton pending={register.isPending} pendingLabel="Creating account" className={styles.submit}>
          Create Account
        </SubmitButton>
      </form>
      <p className={styles.alt}>
        Already have an account? <Link to="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
