import type { SelfUser } from '@mesmer/shared/api/users';
import { HeartHandshake, SlidersHorizontal, Vibrate } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, Switch, Tag } from '../../ui/index.ts';
import styles from './account.module.css';
import { useUpdateSettings } from './api.ts';
import { HapticsSettings } from './HapticsSettings.tsx';

export function SettingsCard({ user }: { user: SelfUser }) {
  const update = useUpdateSettings();
  return (
    <Card className={styles.settings}>
      <h2 className={styles.cardTitle}>Settings</h2>
      <SettingsSection icon={<SlidersHorizontal size={18} />} title="General">
        <Switch
          label="Censor trigger words"
          description="Trigger names show only their first and last letters, like s*****p."
          checked={user.censorTriggers}
          onChange={(censorTriggers) => update.mutate({ censorTriggers })}
        />
        <Switch
          label="Hide locked files"
          description="Leave out files that need a membership tier you don't have."
          checked={user.hideLockedFiles}
          onChange={(hideLockedFiles) => update.mutate({ hideLockedFiles })}
        />
      </SettingsSection>
      <SettingsSection icon={<Vibrate size={18} />} title="Haptics">
        <HapticsSettings settings={user.lovenseSettings} onChange={(change) => update.mutate(change)} />
      </SettingsSection>
      <SettingsSection icon={<HeartHandshake size={18} />} title="Membership">
        <Membership user={user} />
      </SettingsSection>
    </Card>
  );
}

function SettingsSection({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className={styles.section} aria-label={title}>
      <h3 className={styles.sectionTitle}>
        <span className={styles.sectionIcon} aria-hidden>
          {icon}
        </span>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** Spec: Cancelled if cancelled, else Active if active, else Ended. */
function membershipStatus(m: SelfUser['memberships'][number]) {
  if (m.cancelled) return <Tag tone="warning">Cancelled</Tag>;
  if (m.active) return <Tag tone="success">Active</Tag>;
  return <Tag>Ended</Tag>;
}

/** What is linked today; linking and unlinking Patreon arrive with the membership capability. */
function Membership({ user }: { user: SelfUser }) {
  if (!user.patreonLinked) {
    return (
      <>
        <p>No Patreon account is linked yet.</p>
        <p className={styles.note}>
          Linking your Patreon membership is coming soon. It will unlock the files creators share with their
          supporters.
        </p>
      </>
    );
  }
  return (
    <>
      <p>
        Linked to Patreon
        {user.patreonName ? (
          <>
            {' '}
            as <strong>{user.patreonName}</strong>
          </>
        ) : null}
        .
      </p>
      {user.memberships.length === 0 ? (
        <p className="muted">No memberships found on this Patreon account.</p>
      ) : (
        <ul className={styles.memberships}>
          {user.memberships.map((m) => (
            <li key={`${m.creatorName}-${m.tierId}`}>
              <span>
                <strong>{m.creatorName}</strong> · {m.tierName}
              </span>
              {membershipStatus(m)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
