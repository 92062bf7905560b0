import type { SelfUser } from '@mesmer/shared/api/users';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { LogOut } from 'lucide-react';
import { useFeatureSlots } from '../../library/feature-slots.tsx';
import { Spinner, Tag } from '../../ui/index.ts';
import styles from './account.module.css';

/** The signed-in user's own profile at a glance (editable), with the e-mail's state and the Log out button. */
export function ProfileSummary({
  user,
  onLogout,
  loggingOut,
}: {
  user: SelfUser;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  const { OwnProfile } = useFeatureSlots();
  return (
    <OwnProfile
      user={user}
      heading="h2"
      avatarSize={76}
      stats={[
        { label: 'Points', value: withThousands(user.points) },
        { label: 'Day streak', value: user.streak },
      ]}
      className={styles.profile}
    >
      <div className={styles.email}>
        <span className={styles.emailAddress}>{user.email}</span>
        {user.emailVerified ? <Tag tone="success">Verified</Tag> : <Tag tone="warning">Not verified</Tag>}
      </div>
      {!user.emailVerified && (
        <p className={`muted ${styles.small}`}>
          Open the link in the e-mail we sent you to verify your account.
        </p>
      )}

      <button
        type="button"
        className={`btn btn-ghost ${styles.logout}`}
        onClick={onLogout}
        disabled={loggingOut}
      >
        {loggingOut ? <Spinner size={16} label="Logging out" /> : <LogOut size={18} aria-hidden />}
        Log out
      </button>
    </OwnProfile>
  );
}
