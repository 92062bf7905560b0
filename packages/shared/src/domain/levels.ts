/**
 * Listening levels. The spec: points needed for level n = (2n³ + 3n² + 301n) / 6
 * (always a whole number: n(n+1)(2n+1)/6 + 50n). Level n is reached once a user
 * has at least that many points, so a new user with 0 points is level 0 and works
 * toward level 1 at 51 points.
 */
export function pointsForLevel(level: number): number {
  const n = Math.max(0, Math.floor(level));
  return (2 * n ** 3 + 3 * n ** 2 + 301 * n) / 6;
}

/** The highest level whose threshold `points` has reached. */
export function levelForPoints(points: number): number {
  const p = Number.isFinite(points) ? Math.max(0, Math.floor(points)) : 0;
  // pointsForLevel(n) is close to n³/3, so start near the cube root and correct.
  let level = Math.floor(Math.cbrt(3 * p));
  while (level > 0 && pointsForLevel(level) > p) level -= 1;
  while (pointsForLevel(level + 1) <= p) level += 1;
  return level;
}

export interface LevelProgress {
  level: number;
  /** The user's points (whole, never negative). */
  current: number;
  /** Points at which the next level is reached. */
  next: number;
  /** How far through the current level toward the next, 0 (inclusive) to 1 (exclusive). */
  fraction: number;
}

/** What the progress card shows: the level and the fraction of the way to the next one. */
export function levelProgress(points: number): LevelProgress {
  const current = Number.isFinite(points) ? Math.max(0, Math.floor(points)) : 0;
  const level = levelForPoints(current);
  const start = pointsForLevel(level);
  const next = pointsForLevel(level + 1);
  return { level, current, next, fraction: (current - start) / (next - start) };
}
