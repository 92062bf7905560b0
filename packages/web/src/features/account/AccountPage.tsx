import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useCurrentUser, useLogout } from '../../api/auth.ts';
import { useFeatureSlots } from '../../library/feature-slots.tsx';
import { LoadingState, toast } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { AccountSafetyCard } from './AccountSafetyCard.tsx';
import styles from './account.module.css';
import { FriendsCard } from './FriendsCard.tsx';
import { ProfileSummary } from './ProfileSummary.tsx';
import { SettingsCard } from './SettingsCard.tsx';

export default function AccountPage() {
  const { PatreonCard } = useFeatureSlots();
  usePageTitle('Account');
  const { user, isLoaded } = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  // Once Log out is pressed the page heads for '/', not for the login redirect below.
  const [leaving, setLeaving] = useState(false);

  if (!isLoaded || (leaving && !user)) return <LoadingState />;
  if (!user) return <Navigate to="/login" replace />;

  const onLogout = () => {
    setLeaving(true);
    logout.mutate(undefined, {
      onSuccess: () => navigate('/'),
      onError: () => {
        setLeaving(false);
        toast('error', 'Failed to log out.', 'Please try again.');
      },
    });
  };

  return (
    <div className={styles.page}>
      <header className={styles.pageHead}>
        <h1>Account</h1>
        <p className="muted">Your profile, your settings and what you have linked.</p>
      </header>
      <div className={styles.columns}>
        <div className={styles.side}>
          <ProfileSummary user={user} onLogout={onLogout} loggingOut={logout.isPending} />
          <FriendsCard />
          <AccountSafetyCard leave={() => setLeaving(true)} stay={() => setLeaving(false)} />
        </div>
        <div className={styles.main}>
          <SettingsCard user={user} />
          <PatreonCard user={user} />
        </div>
      </div>
    </div>
  );
}
