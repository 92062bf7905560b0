/**
 * Loudness normalisation: the gain that brings a track to about -16 LUFS from the
 * integrated loudness measured at upload, without making it clip. Boosts need the track's peak
 * (the highest of its stored waveform peaks) and stay within +6 dB; cuts are always safe.
 */

/** The level every track is brought to, LUFS (integrated). */
export const TARGET_LOUDNESS_LUFS = -16;
/** The most a quiet track is raised, dB. */
export const MAX_BOOST_DB = 6;
/** The most a loud track is lowered, dB. */
export const MAX_CUT_DB = 24;
/** A boost keeps the track's peak at least this far below full scale, dB. */
export const PEAK_HEADROOM_DB = 1;

export const dbToGain = (db: number): number => 10 ** (db / 20);
export const gainToDb = (gain: number): number => 20 * Math.log10(gain);

/** The track's peak level (0-1] from its waveform peaks, or null when none were stored. */
export function peakLevel(peaks: readonly number[]): number | null {
  let peak = 0;
  for (const p of peaks) if (Number.isFinite(p) && p > peak) peak = p;
  return peak > 0 ? Math.min(1, peak) : null;
}

/**
 * The linear gain for a track of `loudness` LUFS whose highest sample reaches `peak` (0-1):
 * 1 when the loudness is unknown; above 1 only when the peak is known, at most +6 dB and
 * never lifting the peak over -1 dBFS; at least -24 dB.
 */
export function normalisationGain(loudness: number | null, peak: number | null): number {
  if (loudness === null || !Number.isFinite(loudness)) return 1;
  const wanted = dbToGain(TARGET_LOUDNESS_LUFS - loudness);
  const boostLimit = peak !== null && peak > 0 ? dbToGain(-PEAK_HEADROOM_DB) / peak : 1;
  const ceiling = Math.max(1, Math.min(dbToGain(MAX_BOOST_DB), boostLimit));
  return Math.max(dbToGain(-MAX_CUT_DB), Math.min(wanted, ceiling));
}
