import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useVerifyEmail } from '../../api/auth.ts';
import { LoadingState } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AuthCard } from './AuthCard.tsx';
import styles from './auth.module.css';

export default function VerifyPage() {
  usePageTitle('Verify');
  const token = useSearchParams()[0].get('token');
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // The token is single-use: send it once, even when effects run twice (StrictMode).
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  if (token && !verify.isSuccess && !verify.isError) {
    return <LoadingState label="Verifying your account" />;
  }

  const goHome = (
    <div className={styles.actions}>
      <Link to="/" className="btn btn-primary">
        Go Home
      </Link>
    </div>
  );
  if (verify.isSuccess) {
    return (
      <AuthCard
        icon={<CircleCheck size={26} />}
        tone="success"
        title="Verification complete!"
        subtitle="Your account is now verified."
      >
        {goHome}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      icon={<CircleX size={26} />}
      tone="error"
      title="Verification failed."
      subtitle="Your account could not be verified. Please try again."
    >
      {goHome}
    </AuthCard>
  );
}
