import type { ComparedFigure } from '@mesmer/shared/api/insights';
import { withThousands } from '@mesmer/shared/domain/number-format';

/** A share (0 to 1) as a whole percentage: "42%". */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Milliseconds as hours and minutes: "3 h 12 min", "45 min", "0 min". */
export function hoursMinutes(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${withThousands(h)} h ${minutes % 60} min` : `${minutes} min`;
}

/** A position in a track, in milliseconds, as m:ss or h:mm:ss. */
export function trackPosition(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Bytes as KB, MB, GB, TB with one decimal. */
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * How a figure moved against the previous period: "+25%", "−10%", "no change", "new" (from
 * nothing), or null when there is no previous figure (withheld).
 */
export function change(figure: ComparedFigure): string | null {
  const { current, previous } = figure;
  if (previous === null) return null;
  if (previous === 0) return current === 0 ? 'no change' : 'new';
  const delta = Math.round(((current - previous) / previous) * 100);
  if (delta === 0) return 'no change';
  return delta > 0 ? `+${delta}%` : `−${Math.abs(delta)}%`;
}

/** A YYYY-MM-DD day as unix seconds at its UTC midnight (uPlot's time axis). */
export function daySeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** A UTC day as a short readable date: "3 Nov 2026". */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A UTC day as day and month only: "3 Nov". */
export function dayMonth(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}
