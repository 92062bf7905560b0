/**
 * Snapping a time to a grid line or a waveform peak. The nearest candidate within the tolerance
 * wins (a peak and a grid line at the same distance: the peak); with none in reach the time is
 * returned unchanged. A dragged group snaps by its leading edge:
 * `delta = snapTime(start + rawDelta, opts) − start`.
 */

export interface SnapOptions {
  /** Grid spacing in ms (lines at 0, gridMs, 2·gridMs …); none when absent or ≤ 0. */
  gridMs?: number;
  /** Times of waveform peaks in ms, sorted ascending (see peakTimes). */
  peaksTimes?: readonly number[];
  /** How far a time may jump, in ms (the UI passes a few pixels' worth: px × msPerPx). */
  toleranceMs: number;
}

/** The peak time nearest to ms (binary search), or null when there are none. */
export function nearestPeak(peaksTimes: readonly number[], ms: number): number | null {
  if (peaksTimes.length === 0) return null;
  let lo = 0;
  let hi = peaksTimes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (peaksTimes[mid] < ms) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return peaksTimes[0];
  if (lo === peaksTimes.length) return peaksTimes[lo - 1];
  const before = peaksTimes[lo - 1];
  const after = peaksTimes[lo];
  return ms - before <= after - ms ? before : after;
}

export function snapTime(ms: number, options: SnapOptions): number {
  const tolerance = Math.max(0, options.toleranceMs);
  let best = ms;
  let bestDistance = Number.POSITIVE_INFINITY;
  if (options.peaksTimes) {
    const peak = nearestPeak(options.peaksTimes, ms);
    if (peak !== null && Math.abs(peak - ms) <= tolerance) {
      best = peak;
      bestDistance = Math.abs(peak - ms);
    }
  }
  const grid = options.gridMs;
  if (grid && grid > 0) {
    const line = Math.round(ms / grid) * grid;
    const distance = Math.abs(line - ms);
    if (distance <= tolerance && distance < bestDistance) best = line;
  }
  return best;
}

export interface PeakTimesOptions {
  /** Time of peaks[0] in ms. */
  fromMs?: number;
  /** A peak is the highest value within ±windowMs (so peaks are at least this far apart). */
  windowMs?: number;
  /** Values below this (0..1 of the loudest in the list) are not peaks. */
  minLevel?: number;
}

/**
 * The times of the local maxima of a peak list (one value per msPerPeak, e.g. the server's
 * waveform window), for snapping: each is the highest value within ±windowMs and at least
 * minLevel of the list's loudest. Plateaus give their first point.
 */
export function peakTimes(
  peaks: ArrayLike<number>,
  msPerPeak: number,
  { fromMs = 0, windowMs = 50, minLevel = 0.2 }: PeakTimesOptions = {},
): number[] {
  const n = peaks.length;
  if (n === 0 || !(msPerPeak > 0)) return [];
  let loudest = 0;
  for (let i = 0; i < n; i++) loudest = Math.max(loudest, Math.abs(peaks[i]));
  if (loudest === 0) return [];
  const floor = loudest * minLevel;
  const radius = Math.max(1, Math.round(windowMs / msPerPeak));
  const times: number[] = [];
  let lastPeak = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = Math.abs(peaks[i]);
    if (v < floor || i - lastPeak <= radius) continue;
    let isMax = true;
    for (let k = Math.max(0, i - radius); k <= Math.min(n - 1, i + radius) && isMax; k++) {
      const w = Math.abs(peaks[k]);
      if (w > v || (w === v && k < i)) isMax = false;
    }
    if (isMax) {
      times.push(fromMs + i * msPerPeak);
      lastPeak = i;
    }
  }
  return times;
}
