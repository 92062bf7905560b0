import type { ReactNode } from 'react';
import styles from './ui.module.css';

export function SectionHeader({
  title,
  actions,
  as: As = 'h2',
}: {
  title: ReactNode;
  actions?: ReactNode;
  as?: 'h1' | 'h2' | 'h3';
}) {
  return (
    <div className={styles.sectionHeader}>
      <As className={styles.sectionTitle}>{title}</As>
      {actions && <div className={styles.sectionActions}>{actions}</div>}
    </div>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={className ? `${styles.card} ${className}` : styles.card}>{children}</section>;
}
