/**
 * The bytes of a file served under one listening session, kept as sorted, disjoint,
 * inclusive ranges, so the same bytes asked for again (seeks back, browser retries) count once.
 */
export type ServedRanges = [number, number][];

/**
 * A session keeps at most this many separate stretches; real playback with seeks needs a handful. Each store
 * of a session writes them all (decision 036: 200 made a seeking listener's stores the server's bottleneck).
 */
export const MAX_SERVED_RANGES = 64;

/**
 * `ranges` with [start, end] added, merging overlapping and adjacent ranges. `ranges` itself when that
 * changes nothing (bytes already held) or would exceed the cap.
 */
export function addServedRange(ranges: ServedRanges, start: number, end: number): ServedRanges {
  if (end < start || ranges.some(([s, e]) => s <= start && end <= e)) return ranges;
  const merged: ServedRanges = [];
  let next: [number, number] = [start, end];
  let placed = false;
  for (const [s, e] of ranges) {
    if (e + 1 < next[0]) merged.push([s, e]);
    else if (next[1] + 1 < s) {
      if (!placed) merged.push(next);
      placed = true;
      merged.push([s, e]);
    } else next = [Math.min(s, next[0]), Math.max(e, next[1])];
  }
  if (!placed) merged.push(next);
  return merged.length > MAX_SERVED_RANGES ? ranges : merged;
}

/** How many distinct bytes the ranges cover. */
export function servedBytes(ranges: ServedRanges): number {
  return ranges.reduce((sum, [s, e]) => sum + e - s + 1, 0);
}
