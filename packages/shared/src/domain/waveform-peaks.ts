/**
 * Waveform peaks at several resolutions, for the cue editor's zoom (from the whole file down to about
 * 10 ms per pixel). The finest level holds the loudest sample (absolute, 0-1) of every PEAK_BASE_MS of
 * audio; each coarser level takes the maximum of PEAK_LEVEL_FACTOR peaks of the one below. A window
 * answer (GET /api/files/peaks) comes from the coarsest level still at least as fine as asked, and
 * holds at most MAX_PEAKS_PER_ANSWER peaks.
 */

/** Milliseconds of audio one peak of the finest level covers (200 peaks a second). */
export const PEAK_BASE_MS = 5;
/** Each level's peak covers this many peaks of the level below. */
export const PEAK_LEVEL_FACTOR = 4;
/** The most peaks one answer holds; a wider window gets a coarser level. */
export const MAX_PEAKS_PER_ANSWER = 4000;
/** Levels are made until one holds at most this many peaks (or there are MAX_PEAK_LEVELS). */
export const COARSEST_LEVEL_PEAKS = 1000;
export const MAX_PEAK_LEVELS = 12;

/** The milliseconds per peak of level `level` (0 = the finest). */
export function levelMs(level: number): number {
  return PEAK_BASE_MS * PEAK_LEVEL_FACTOR ** level;
}

/** How many levels a track of `peaksAtBase` finest peaks has: down to COARSEST_LEVEL_PEAKS or fewer. */
export function levelCountFor(peaksAtBase: number): number {
  let count = 1;
  let length = peaksAtBase;
  while (length > COARSEST_LEVEL_PEAKS && count < MAX_PEAK_LEVELS) {
    length = Math.ceil(length / PEAK_LEVEL_FACTOR);
    count++;
  }
  return count;
}

/**
 * The level that answers a window of `fromMs`..`toMs` asked at `msPerPeak`: the coarsest whose
 * peaks cover at most `msPerPeak` (the finest when even it is coarser), then coarser while the
 * window would hold more than MAX_PEAKS_PER_ANSWER peaks. `levelCount` bounds it.
 */
export function chooseLevel(msPerPeak: number, fromMs: number, toMs: number, levelCount: number): number {
  let level = 0;
  while (level + 1 < levelCount && levelMs(level + 1) <= msPerPeak) level++;
  while (level + 1 < levelCount && peaksInWindow(fromMs, toMs, levelMs(level)) > MAX_PEAKS_PER_ANSWER)
    level++;
  return level;
}

/** The peaks of a level of `ms` per peak that a window touches: from the one holding fromMs to the one holding toMs − 1. */
export function peaksInWindow(fromMs: number, toMs: number, ms: number): number {
  if (toMs <= fromMs) return 0;
  return Math.ceil(toMs / ms) - Math.floor(fromMs / ms);
}

/** Max-abs over each group of `factor` values: the next coarser level. */
export function coarserLevel(peaks: Uint8Array, factor = PEAK_LEVEL_FACTOR): Uint8Array {
  const out = new Uint8Array(Math.ceil(peaks.length / factor));
  for (let i = 0; i < peaks.length; i++) {
    const o = Math.floor(i / factor);
    if (peaks[i] > out[o]) out[o] = peaks[i];
  }
  return out;
}

/** A stored peak (0-255) as a level from 0 to 1, three decimals. */
export function peakLevel(byte: number): number {
  return Math.round((byte / 255) * 1000) / 1000;
}
