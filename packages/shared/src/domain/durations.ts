/** How lengths of time read in the app. Both functions take milliseconds. */

function wholeSeconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Clock-style time for the player: mm:ss below an hour, hh:mm:ss from an hour on
 * (65 000 → '01:05', 3 725 000 → '01:02:05'). Invalid or negative input reads '00:00'.
 */
export function formatTime(ms: number): string {
  const total = wholeSeconds(ms);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}` : `${pad2(minutes)}:${pad2(seconds)}`;
}

/**
 * Short length for lists: 'Xh Ym' from an hour on, 'Xm' from a minute on, else 'Xs'
 * (3 725 000 → '1h 2m', 125 000 → '2m', 45 000 → '45s'). Partial units are dropped.
 */
export function formatDuration(ms: number): string {
  const total = wholeSeconds(ms);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m`;
  return `${total}s`;
}
