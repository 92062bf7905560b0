import type { Audience, ComparedFigure } from '@mesmer/shared/api/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { change, hoursMinutes, percent } from './figures.ts';
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

/**
 * The audience's headline tiles (a file's or a catalogue's), each compared with the previous period;
 * none while the audience is withheld (fewer than 5 distinct listeners).
 */
export function audienceTiles(audience: Audience, against: string): Tile[] {
  if (audience.withheld) return [];
  return [
    {
      label: 'Unique listeners',
      value: withThousands(audience.listeners.current),
      figure: audience.listeners,
      against,
    },
    {
      label: 'Listening time',
      value: hoursMinutes(audience.listeningMs.current),
      figure: audience.listeningMs,
      against,
    },
    {
      label: 'Average share heard',
      value: percent(audience.averageShareHeard.current),
      figure: audience.averageShareHeard,
      against,
    },
    {
      label: 'Completion rate',
      value: percent(audience.completionRate.current),
      figure: audience.completionRate,
      against,
    },
    { label: 'Plays with a toy', value: percent(audience.toyShare) },
  ];
}
