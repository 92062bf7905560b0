import type { SelfUser } from '@mesmer/shared/api/users';
import { SlidersHorizontal, Vibrate } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, Switch } from '../../ui/index.ts';
import styles from './account.module.css';
import { useUpdateSettings } from './api.ts';
import { HapticsSettings } from './HapticsSettings.tsx';

/** `lovenseAvailable`: whether the site has Lovense's API (the site settings say). */
export function SettingsCard({ user, lovenseAvailable }: { user: SelfUser; lovenseAvailable?: boolean }) {
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
        <Switch
          label="Leave me out of creators' insights"
          description="Creators only ever see totals, never who listened. When on, your listening is not counted in them at all; your plays still count in play counts."
          checked={user.insightsOptOut}
          onChange={(insightsOptOut) => update.mutate({ insightsOptOut })}
        />
      </SettingsSection>
      <SettingsSection icon={<Vibrate size={18} />} title="Haptics">
        <HapticsSettings
          settings={user.lovenseSettings}
          onChange={(change) => update.mutate(change)}
          lovenseAvailable={lovenseAvailable}
        />
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
