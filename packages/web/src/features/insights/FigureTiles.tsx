import type { ComparedFigure } from '@mesmer/shared/api/insights';
import { change } from './figures.ts';
import styles from './insights.module.css';

export interface Tile {
  label: string;
  value: string;
  /** Compared with the previous period when given. */
  figure?: ComparedFigure;
  /** What the comparison is against, e.g. "previous 28 days". */
  against?: string;
}

/** The headline figures of a view, each with its change against the previous period. */
export function FigureTiles({ tiles }: { tiles: readonly Tile[] }) {
  return (
    <dl className={styles.tiles}>
      {tiles.map((t) => {
        const moved = t.figure ? change(t.figure) : null;
        return (
          <div key={t.label} className={styles.tile}>
            <dt>{t.label}</dt>
            <dd className={styles.tileValue}>{t.value}</dd>
            {moved && (
              <dd
                className={
                  moved.startsWith('+') || moved === 'new'
                    ? `${styles.tileChange} ${styles.up}`
                    : moved.startsWith('−')
                      ? `${styles.tileChange} ${styles.down}`
                      : styles.tileChange
                }
              >
                {moved}
                {t.against ? ` vs ${t.against}` : ''}
              </dd>
            )}
          </div>
        );
      })}
    </dl>
  );
}
