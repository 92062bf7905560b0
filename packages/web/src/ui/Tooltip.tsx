import type { ReactNode } from 'react';
import styles from './ui.module.css';

/** Hover/focus tooltip; 200 px wide by default. */
export function Tooltip({
  text,
  children,
  width = 200,
}: {
  text: string;
  children: ReactNode;
  width?: number;
}) {
  return (
    <span className={styles.tooltipHost}>
      {children}
      <span className={styles.tooltip} role="tooltip" style={{ width }}>
        {text}
      </span>
    </span>
  );
}
