/**
 * The stored peaks reduced to at most `count` bars (each the loudest peak of its stretch), scaled so the
 * loudest bar is 1. Peaks the server stored are 0-1 already; scaling keeps quiet tracks visible. The file
 * page's waveform and the player's seek bar both draw these.
 */
export function waveformBars(peaks: readonly number[], count: number): number[] {
  const n = Math.min(count, peaks.length);
  const bars: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = Math.floor((i * peaks.length) / n);
    const end = Math.max(start + 1, Math.floor(((i + 1) * peaks.length) / n));
    let max = 0;
    for (let j = start; j < end; j++) max = Math.max(max, Math.abs(peaks[j] ?? 0));
    bars.push(max);
  }
  const top = Math.max(0, ...bars);
  return top > 0 ? bars.map((b) => b / top) : bars;
}
