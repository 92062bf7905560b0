import styles from './insights.module.css';

export interface Bar {
  label: string;
  value: number;
  /** The value as shown beside its bar (a count, a share). */
  display: string;
}

/** Horizontal bars in plain HTML: a breakdown (sources, tiers, top files), longest first as given. */
export function BarList({ bars }: { bars: readonly Bar[] }) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  return (
    <ul className={styles.bars}>
      {bars.map((b) => (
        <li key={b.label} className={styles.barRow}>
          <span className={styles.barLabel}>{b.label}</span>
          <span className={styles.barTrack}>
            <span className={styles.barFill} style={{ width: `${max > 0 ? (b.value / max) * 100 : 0}%` }} />
          </span>
          <span className={styles.barValue}>{b.display}</span>
        </li>
      ))}
    </ul>
  );
}
