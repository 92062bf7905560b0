import { useEffect, useRef } from 'react';
import styles from './insights.module.css';

const CELL = 12;
const GAP = 3;
const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The shade (0-4) of a day's minutes against the busiest day: 0 is none. */
export function heatLevel(minutes: number, max: number): number {
  if (minutes <= 0 || max <= 0) return 0;
  return Math.min(4, Math.ceil((minutes / max) * 4));
}

/**
 * A year of days as a grid of weeks (columns, Monday first) shaded by minutes listened: the
 * listener's calendar. `days` are consecutive ISO dates (YYYY-MM-DD), oldest first.
 */
export function CalendarHeatmap({ days }: { days: readonly { date: string; minutes: number }[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  // On a phone the year scrolls sideways: start at its end, the latest weeks.
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, []);
  if (days.length === 0) return null;
  const first = Date.parse(`${days[0].date}T00:00:00Z`);
  // Monday = 0 … Sunday = 6.
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const max = Math.max(...days.map((d) => d.minutes));
  const weeks = Math.ceil((lead + days.length) / 7);
  const monthLabels: { x: number; label: string }[] = [];
  const cells = days.map((d, i) => {
    const slot = lead + i;
    const week = Math.floor(slot / 7);
    const date = new Date(first + i * DAY_MS);
    if (date.getUTCDate() === 1 || i === 0) {
      const x = week * (CELL + GAP);
      if (!monthLabels.some((m) => Math.abs(m.x - x) < 3 * (CELL + GAP)))
        monthLabels.push({ x, label: MONTHS[date.getUTCMonth()] });
    }
    return (
      <rect
        key={d.date}
        x={week * (CELL + GAP)}
        y={16 + (slot % 7) * (CELL + GAP)}
        width={CELL}
        height={CELL}
        rx={2}
        className={styles[`heat${heatLevel(d.minutes, max)}`]}
      >
        <title>{`${d.date}: ${d.minutes} min`}</title>
      </rect>
    );
  });
  return (
    <div className={styles.heatmapWrap}>
      <div ref={scroller} className={styles.heatmapScroll}>
        <svg
          className={styles.heatmap}
          viewBox={`0 0 ${weeks * (CELL + GAP)} ${16 + 7 * (CELL + GAP)}`}
          role="presentation"
        >
          {monthLabels.map((m) => (
            <text key={m.x} x={m.x} y={10} className={styles.heatLabel}>
              {m.label}
            </text>
          ))}
          {cells}
        </svg>
      </div>
      <div className={styles.heatKey}>
        Less
        {[0, 1, 2, 3, 4].map((l) => (
          <svg key={l} width={CELL} height={CELL} role="presentation">
            <rect width={CELL} height={CELL} rx={2} className={styles[`heat${l}`]} />
          </svg>
        ))}
        More
      </div>
    </div>
  );
}
