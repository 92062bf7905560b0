import { Flame } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './ui.module.css';

export type TagTone = 'neutral' | 'accent' | 'success' | 'warning' | 'info';

export function Tag({
  children,
  tone = 'neutral',
  title,
}: {
  children: ReactNode;
  tone?: TagTone;
  title?: string;
}) {
  return (
    <span className={`${styles.tag} ${styles[`tag_${tone}`]}`} title={title}>
      {children}
    </span>
  );
}

/** The listening streak, shown only above 1 day. */
export function StreakBadge({ days }: { days: number }) {
  if (days <= 1) return null;
  return (
    <Tag tone="warning" title="Listening streak">
      <Flame size={14} aria-hidden /> {days} days
    </Tag>
  );
}
