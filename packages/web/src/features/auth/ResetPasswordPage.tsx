import { password as passwordSchema } from '@mesmer/shared/api/credentials';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { CircleCheck, KeyRound, MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useRequestPasswordReset, useResetPassword } from '../../api/auth.ts';
import { FormError, SubmitButton } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AuthCard, TextField } from './AuthCard.tsx';
import styles from './auth.module.css';
import { emptyFields, FILL_ALL, serverMessage } from './form.ts';

/** /reset_password: without a token asks for a reset e-mail, with ?token= sets the new password. */
export default function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token');
  return token ? <ResetPasswordForm token={token} /> : <ForgotPasswordForm />;
}

function ForgotPasswordForm() {
  usePageTitle('Forgot Password');
  const request = useRequestPasswordReset();
  const [values, setValues] = useState({ username: '', email: '' });
  const [highlighted, setHighlighted] = useState(new Set<keyof typeof values>());
  const [error, setError] = useState<string | null>(null);

  if (request.isSuccess) {
    return (
      <AuthCard icon={<MailCheck size={24} />} tone="success" title="Check your e-mail">
        <p className="muted" role="status">
          {request.data.message ||
            'If the username and e-mail match an account, a link to reset your password is on its way.'}
        </p>
        <p className="muted">The link works once and expires after a while. Check your spam folder too.</p>
        <div className={styles.actions}>
          <Link to="/login" className="btn btn-ghost">
            Back to login
          </Link>
        </div>
      </AuthCard>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = emptyFields(values);
    setHighlighted(missing);
    if (missing.size > 0) return setError(FILL_ALL);
    setError(null);
    request.mutate(
      { username: values.username.trim(), email: values.email.trim() },
      { onError: (err) => setError(serverMessage(err)) },
    );
  };

  return (
    <AuthCard
      icon={<KeyRound size={24} />}
      title="Forgot Password"
      subtitle="Enter your username and e-mail and we'll send you a link to choose a new password."
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Username"
          value={values.username}
          onChange={(username) => setValues((v) => ({ ...v, username }))}
          invalid={highlighted.has('username')}
          maxLength={TEXT_LIMITS.username}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="E-mail"
          type="email"
          value={values.email}
          onChange={(email) => setValues((v) => ({ ...v, email }))}
          invalid={highlighted.has('email')}
          maxLength={TEXT_LIMITS.email}
          autoComplete="email"
        />
        <FormError message={error} />
        <SubmitButton pending={request.isPending} pendingLabel="Sending" className={styles.submit}>
          Send reset link
        </SubmitButton>
      </form>
      <p className={styles.alt}>
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}

function ResetPasswordForm({ token }: { token: string }) {
  usePageTitle('Reset Password');
  const reset = useResetPassword();
  const [values, setValues] = useState({ password: '', repeat: '' });
  const [highlighted, setHighlighted] = useState(new Set<keyof typeof values>());
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);

  if (reset.isSuccess) {
    return (
      <AuthCard
        icon={<CircleCheck size={26} />}
        tone="success"
        title="Password reset"
        subtitle="Your new password is set. You can log in with it now."
      >
        <div className={styles.actions}>
          <Link to="/login" className="btn btn-primary">
            Log in
          </Link>
        </div>
      </AuthCard>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = emptyFields(values);
    if (missing.size > 0) {
      setHighlighted(missing);
      return setError({ title: FILL_ALL });
    }
    if (values.password !== values.repeat) {
      setHighlighted(new Set(['repeat']));
      return setError({ title: 'The passwords do not match.' });
    }
    const strength = passwordSchema.safeParse(values.password);
    if (!strength.success) {
      setHighlighted(new Set(['password']));
      return setError({ title: strength.error.issues[0].message });
    }
    setHighlighted(new Set());
    setError(null);
    reset.mutate(
      { token, password: values.password },
      { onError: (err) => setError({ title: 'Failed to reset password.', detail: serverMessage(err) }) },
    );
  };

  return (
    <AuthCard
      icon={<KeyRound size={24} />}
      title="Reset Password"
      subtitle="Choose a new password for your account."
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label="Password"
          type="password"
          value={values.password}
          onChange={(password) => setValues((v) => ({ ...v, password }))}
          invalid={highlighted.has('password')}
          maxLength={TEXT_LIMITS.password}
          autoComplete="new-password"
          autoFocus
          hint="At least 8 characters."
        />
        <TextField
          label="Repeat password"
          type="password"
          value={values.repeat}
          onChange={(repeat) => setValues((v) => ({ ...v, repeat }))}
          invalid={highlighted.has('repeat')}
          maxLength={TEXT_LIMITS.password}
          autoComplete="new-password"
        />
        <FormError message={error?.title} detail={error?.detail} />
        <SubmitButton pending={reset.isPending} pendingLabel="Saving" className={styles.submit}>
          Reset password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
