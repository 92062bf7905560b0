/**
 * Timeline geometry: which part of the file is on screen and where a time is drawn. The zoom is
 * a number of milliseconds per pixel, from the whole file in the view's width down to
 * MIN_MS_PER_PX. Finding what to draw is a binary search, so it stays cheap with 100,000 cues.
 */
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { firstEndingAfter, firstStartingAtOrAfter } from './cue-document';

/** The finest zoom: 10 ms per pixel. */
export const MIN_MS_PER_PX = 10;
/** One zoom step (buttons, keys, a wheel notch) doubles or halves the scale. */
export const ZOOM_STEP = 2;

export interface TimelineView {
  /** Milliseconds per pixel. */
  msPerPx: number;
  /** The time at the view's left edge. */
  scrollMs: number;
  /** The view's width in CSS pixels. */
  widthPx: number;
}

/** The coarsest zoom: the whole file fits the width (never finer than MIN_MS_PER_PX). */
export function fitMsPerPx(durationMs: number, widthPx: number): number {
  if (!(widthPx > 0)) return MIN_MS_PER_PX;
  return Math.max(MIN_MS_PER_PX, durationMs / widthPx);
}

/** The whole file in view. */
export function fitView(durationMs: number, widthPx: number): TimelineView {
  return { msPerPx: fitMsPerPx(durationMs, widthPx), scrollMs: 0, widthPx: Math.max(0, widthPx) };
}

/** The view with its zoom within [MIN_MS_PER_PX, whole file] and its scroll within the file. */
export function clampView(view: TimelineView, durationMs: number): TimelineView {
  const widthPx = Math.max(0, view.widthPx);
  const msPerPx = Math.min(
    fitMsPerPx(durationMs, widthPx),
    Math.max(MIN_MS_PER_PX, Number.isFinite(view.msPerPx) ? view.msPerPx : MIN_MS_PER_PX),
  );
  const maxScroll = Math.max(0, durationMs - widthPx * msPerPx);
  const scrollMs = Math.min(maxScroll, Math.max(0, Number.isFinite(view.scrollMs) ? view.scrollMs : 0));
  return { msPerPx, scrollMs, widthPx };
}

export const msToPx = (view: TimelineView, ms: number): number => (ms - view.scrollMs) / view.msPerPx;
export const pxToMs = (view: TimelineView, px: number): number => view.scrollMs + px * view.msPerPx;

/** The time range on screen. */
export function visibleRange(view: TimelineView): { fromMs: number; toMs: number } {
  return { fromMs: view.scrollMs, toMs: view.scrollMs + view.widthPx * view.msPerPx };
}

/**
 * Zooms by `factor` (>1 zooms out, <1 zooms in) keeping the time under anchorPx (the pointer, or
 * the view's middle for buttons and keys) where it is, as far as the limits allow.
 */
export function zoomAt(
  view: TimelineView,
  factor: number,
  anchorPx: number,
  durationMs: number,
): TimelineView {
  if (!(factor > 0)) return view;
  const anchorMs = pxToMs(view, anchorPx);
  const zoomed = clampView({ ...view, msPerPx: view.msPerPx * factor }, durationMs);
  return clampView({ ...zoomed, scrollMs: anchorMs - anchorPx * zoomed.msPerPx }, durationMs);
}

/** Scrolls by a number of pixels (wheel, drag of the background, keys). */
export function scrollBy(view: TimelineView, px: number, durationMs: number): TimelineView {
  return clampView({ ...view, scrollMs: view.scrollMs + px * view.msPerPx }, durationMs);
}

/**
 * The view scrolled so that ms is on screen (the playhead while playing or recording): unchanged
 * when it already is, otherwise ms is put `marginPx` from the left edge.
 */
export function scrollToShow(view: TimelineView, ms: number, durationMs: number, marginPx = 0): TimelineView {
  const { fromMs, toMs } = visibleRange(view);
  if (ms >= fromMs && ms <= toMs) return view;
  return clampView({ ...view, scrollMs: ms - marginPx * view.msPerPx }, durationMs);
}

/**
 * The index range [start, end) of the cues that overlap [fromMs, toMs), for cues sorted and not
 * overlapping (a document's). Two binary searches.
 */
export function visibleCueRange(
  cues: readonly HapticCue[],
  fromMs: number,
  toMs: number,
): { start: number; end: number } {
  const start = firstEndingAfter(cues, fromMs);
  const end = Math.max(start, firstStartingAtOrAfter(cues, toMs));
  return { start, end };
}

export type HitPart = 'start' | 'stop' | 'body';

/**
 * Which cue is at pixel x and which part of it: an edge when within edgePx of it (the nearer
 * edge on a narrow cue, the pointer's cue where two touch), otherwise the body; null on empty timeline.
 */
export function hitTest(
  cues: readonly HapticCue[],
  view: TimelineView,
  x: number,
  edgePx = 4,
): { index: number; part: HitPart } | null {
  const ms = pxToMs(view, x);
  const slack = edgePx * view.msPerPx;
  const { start, end } = visibleCueRange(cues, ms - slack, ms + slack);
  let best: { index: number; part: HitPart; distance: number } | null = null;
  for (let k = start; k < end; k++) {
    const cue = cues[k];
    const toStart = Math.abs(msToPx(view, cue.time) - x);
    const toStop = Math.abs(msToPx(view, cue.stopTime) - x);
    const edge: HitPart = toStart <= toStop ? 'start' : 'stop';
    const distance = Math.min(toStart, toStop);
    const inside = ms >= cue.time && ms < cue.stopTime;
    if (distance <= edgePx) {
      // Where two cues touch, the edge of the one under the pointer.
      if (!best || distance < best.distance || (distance === best.distance && inside)) {
        best = { index: k, part: edge, distance };
      }
    } else if (inside && !best) {
      best = { index: k, part: 'body', distance: Number.POSITIVE_INFINITY };
    }
  }
  return best && { index: best.index, part: best.part };
}
