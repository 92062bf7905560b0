/**
 * The daily listening streak. A day is a calendar day in the listener's time zone,
 * written 'YYYY-MM-DD'. Listening on the day after the last counted day extends the
 * streak, listening again the same day keeps it, and a gap of a day or more starts over at 1.
 */

export interface StreakState {
  streak: number;
  /** The last local day that counted, or null before the first. */
  lastDay: string | null;
}

/** The calendar day (YYYY-MM-DD) that `instant` falls on in `timeZone`; unknown zones read as UTC. */
export function localDay(instant: Date, timeZone: string): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The streak after listening that counts on local day `today`. */
export function extendStreak(state: StreakState, today: string): StreakState {
  if (state.lastDay === null) return { streak: 1, lastDay: today };
  const gap = daysBetween(state.lastDay, today);
  // Same day, or an earlier day after a time-zone change: nothing new to count.
  if (gap <= 0) return { streak: Math.max(1, state.streak), lastDay: state.lastDay };
  if (gap === 1) return { streak: state.streak + 1, lastDay: today };
  return { streak: 1, lastDay: today };
}

/**
 * The streak to show on `today`: the stored one while it can still be extended
 * (last counted day is today or yesterday), otherwise 0 because it has lapsed.
 */
export function currentStreak(state: StreakState, today: string): number {
  if (state.lastDay === null) return 0;
  return daysBetween(state.lastDay, today) <= 1 ? state.streak : 0;
}
