/**
 * What the canvas needs beside the model's timeline geometry (model/timeline.ts): which server
 * peak windows cover the view, ruler ticks and time labels.
 */
import { PEAK_BASE_MS, PEAK_LEVEL_FACTOR } from '@mesmer/shared/domain/waveform-peaks';
import { type TimelineView, visibleRange } from './model/timeline.ts';

/** A peak level from the server: max-abs amplitude (0-1) per `msPerPeak` from `fromMs`. */
export interface PeakWindow {
  fromMs: number;
  msPerPeak: number;
  peaks: readonly number[];
}

/**
 * The coarsest server level that is still at least as fine as the screen (one peak per pixel or
 * better): the ladder the server stores (shared/domain/waveform-peaks.ts).
 */
export function peakLevelFor(msPerPx: number): number {
  let level = PEAK_BASE_MS;
  while (level * PEAK_LEVEL_FACTOR <= msPerPx) level *= PEAK_LEVEL_FACTOR;
  return level;
}

/** How many peaks one window request covers: the server answers at most 4,000. */
export const PEAKS_PER_WINDOW = 2000;

/** The windows (aligned, so scrolling reuses them) that cover the view at its peak level. */
export function peakWindowsFor(
  view: TimelineView,
  durationMs: number,
): { fromMs: number; toMs: number; msPerPeak: number }[] {
  const msPerPeak = peakLevelFor(view.msPerPx);
  const span = msPerPeak * PEAKS_PER_WINDOW;
  const { fromMs, toMs } = visibleRange(view);
  const first = Math.floor(fromMs / span);
  const last = Math.floor(Math.min(durationMs, toMs) / span);
  const windows = [];
  for (let k = first; k <= last; k += 1) {
    windows.push({ fromMs: k * span, toMs: Math.min(durationMs, (k + 1) * span), msPerPeak });
  }
  return windows;
}

/** Time-axis labels: a tick step giving at least ~80 px between labels. */
export function tickStepMs(msPerPx: number): number {
  const steps = [
    10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  ];
  return steps.find((s) => s / msPerPx >= 80) ?? 1_200_000;
}

/** '1:05.250' at fine zooms, '1:05' at coarse ones. */
export function formatTime(ms: number, withMs = true): string {
  const total = Math.max(0, Math.round(ms));
  const minutes = Math.floor(total / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const rest = total % 1000;
  const base = `${minutes}:${String(seconds).padStart(2, '0')}`;
  return withMs ? `${base}.${String(rest).padStart(3, '0')}` : base;
}
