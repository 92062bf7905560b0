/**
 * Draws the editor's timeline on a canvas: a time ruler, the waveform from the server's peak
 * windows, and the cue lane below it (a block per cue: its height is its strength). Only what
 * is in view is drawn, found by binary search, so a frame costs the same with 50 or 5,000 cues.
 * Also answers what lies under a pointer (hit testing) with the same geometry.
 */
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import type { DragPreview } from './drag-preview.ts';
import type { EditorCue } from './model/cue-document.ts';
import {
  hitTest as hitTestX,
  msToPx,
  type TimelineView,
  visibleCueRange,
  visibleRange,
} from './model/timeline.ts';
import { formatTime, type PeakWindow, tickStepMs } from './timeline-view.ts';

export const RULER_H = 18;
const GAP = 4;
/** Pointer distance (px) that grabs a block's edge or top instead of its body. */
export const EDGE_GRAB_PX = 6;

export interface TimelineLayout {
  height: number;
  waveTop: number;
  waveHeight: number;
  laneTop: number;
  laneHeight: number;
}

export function timelineLayout(height: number): TimelineLayout {
  const waveHeight = Math.round((height - RULER_H) * 0.38);
  const laneTop = RULER_H + waveHeight + GAP;
  return { height, waveTop: RULER_H, waveHeight, laneTop, laneHeight: height - laneTop - 2 };
}

export interface TimelineColors {
  text: string;
  muted: string;
  border: string;
  surface: string;
  wave: string;
  accent: string;
  accentStrong: string;
  selection: string;
}

/** The theme's colours, read from the custom properties of <html>. */
export function readColors(el: Element = document.documentElement): TimelineColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1f1a24'),
    muted: v('--text-muted', '#6b6475'),
    border: v('--border', '#e4dfe9'),
    surface: v('--surface-2', '#f0edf3'),
    wave: v('--text-muted', '#6b6475'),
    accent: v('--accent', '#fc688f'),
    accentStrong: v('--accent-strong', '#b3174d'),
    selection: v('--info', '#3b7dd8'),
  };
}

export interface TimelineScene {
  view: TimelineView;
  layout: TimelineLayout;
  durationMs: number;
  /** The document's cues: sorted, not overlapping (model/cue-document.ts). */
  cues: readonly EditorCue[];
  selection: ReadonlySet<number>;
  /** Waveform windows, coarsest first (finer ones are drawn over them). */
  peaks: readonly PeakWindow[];
  playheadMs: number | null;
  cursorMs: number;
  /** A rubber band or a cue being drawn, in ms. */
  band: { fromMs: number; toMs: number; kind: 'select' | 'add' } | null;
  /** The cue with the keyboard focus ring (the last one selected by keys or pointer). */
  focusedId: number | null;
  /** Cues being recorded, drawn over the lane until the recording is written into the document. */
  recorded: readonly HapticCue[];
  /** A drag in progress: its cues drawn where the drop would put them. */
  preview: DragPreview | null;
  colors: TimelineColors;
}

/** The block of a cue in the lane, in CSS pixels. */
export function cueRect(scene: Pick<TimelineScene, 'view' | 'layout'>, cue: HapticCue) {
  const x0 = msToPx(scene.view, cue.time);
  const x1 = msToPx(scene.view, cue.stopTime);
  const h = Math.max(3, cue.strength * scene.layout.laneHeight);
  const bottom = scene.layout.laneTop + scene.layout.laneHeight;
  return { x: x0, width: Math.max(1, x1 - x0), y: bottom - h, height: h };
}

/** Strength for a pointer height in the lane (top = 1, bottom = 0). */
export function strengthAt(layout: TimelineLayout, y: number): number {
  const fromBottom = layout.laneTop + layout.laneHeight - y;
  return Math.min(1, Math.max(0, fromBottom / layout.laneHeight));
}

function drawRuler(ctx: CanvasRenderingContext2D, s: TimelineScene) {
  const { view, colors } = s;
  const step = tickStepMs(view.msPerPx);
  const { fromMs, toMs: endMs } = visibleRange(view);
  ctx.fillStyle = colors.muted;
  ctx.strokeStyle = colors.border;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.beginPath();
  for (let t = Math.floor(fromMs / step) * step; t <= endMs; t += step) {
    const x = Math.round(msToPx(view, t)) + 0.5;
    ctx.moveTo(x, RULER_H - 5);
    ctx.lineTo(x, s.layout.height);
    ctx.fillText(formatTime(t, step < 1000), x + 3, 3);
  }
  ctx.globalAlpha = 0.5;
  ctx.stroke();
  ctx.globalAlpha = 1;
}

function drawWaveform(ctx: CanvasRenderingContext2D, s: TimelineScene) {
  const { view, layout, colors } = s;
  const mid = layout.waveTop + layout.waveHeight / 2;
  const half = layout.waveHeight / 2 - 1;
  ctx.fillStyle = colors.wave;
  ctx.globalAlpha = 0.6;
  for (const w of s.peaks) {
    // One bar per pixel: the loudest peak of the ones under it (or the one peak, zoomed in).
    const firstPx = Math.max(0, Math.floor(msToPx(view, w.fromMs)));
    const lastPx = Math.min(view.widthPx, Math.ceil(msToPx(view, w.fromMs + w.peaks.length * w.msPerPeak)));
    for (let px = firstPx; px < lastPx; px += 1) {
      const a = Math.floor((view.scrollMs + px * view.msPerPx - w.fromMs) / w.msPerPeak);
      const b = Math.max(
        a + 1,
        Math.floor((view.scrollMs + (px + 1) * view.msPerPx - w.fromMs) / w.msPerPeak),
      );
      let peak = 0;
      for (let i = Math.max(0, a); i < Math.min(b, w.peaks.length); i += 1) peak = Math.max(peak, w.peaks[i]);
      const h = Math.max(0.5, peak * half);
      ctx.fillRect(px, mid - h, 1, h * 2);
    }
  }
  ctx.globalAlpha = 1;
}

/**
 * Draws cues[start, end) shifted by offsetMs, skipping the ids in `skip`. With `cover`, the lane
 * under each block is cleared first (a dragged block hides what it will win over).
 */
function drawBlocks(
  ctx: CanvasRenderingContext2D,
  s: TimelineScene,
  cues: readonly EditorCue[],
  range: { start: number; end: number },
  {
    offsetMs = 0,
    skip = null,
    cover = false,
  }: { offsetMs?: number; skip?: ReadonlySet<number> | null; cover?: boolean },
) {
  const { view, colors, layout } = s;
  const bottom = layout.laneTop + layout.laneHeight;
  const fill = (x: number, width: number, strength: number, selected: boolean) => {
    if (cover) {
      ctx.fillStyle = colors.surface;
      ctx.fillRect(x, layout.laneTop, width, layout.laneHeight);
    }
    const height = Math.max(3, strength * layout.laneHeight);
    // Stronger cues are more opaque as well as taller: readable in both themes.
    ctx.globalAlpha = 0.45 + strength * 0.55;
    ctx.fillStyle = selected ? colors.accentStrong : colors.accent;
    ctx.fillRect(x, bottom - height, width, height);
    ctx.globalAlpha = 1;
  };
  // Cues narrower than a pixel are drawn merged per pixel column (the strongest; selected if any is):
  // zoomed out, thousands of cues cost as many rectangles as the lane has pixels, not one each.
  let column = -1;
  let columnStrength = 0;
  let columnSelected = false;
  const flushColumn = () => {
    if (column >= 0) fill(column, 1, columnStrength, columnSelected);
    column = -1;
  };
  for (let i = range.start; i < range.end; i += 1) {
    const cue = cues[i];
    if (skip?.has(cue.id)) continue;
    const selected = s.selection.has(cue.id);
    const x0 = msToPx(view, cue.time + offsetMs);
    const x1 = msToPx(view, cue.stopTime + offsetMs);
    if (x1 - x0 < 1 && cue.id !== s.focusedId) {
      const px = Math.floor(x0);
      if (px !== column) {
        flushColumn();
        column = px;
        columnStrength = 0;
        columnSelected = false;
      }
      columnStrength = Math.max(columnStrength, cue.strength);
      columnSelected ||= selected;
      continue;
    }
    flushColumn();
    const r = cueRect(
      s,
      offsetMs === 0 ? cue : { ...cue, time: cue.time + offsetMs, stopTime: cue.stopTime + offsetMs },
    );
    fill(r.x, r.width, cue.strength, selected);
    if (selected && r.width > 2) {
      ctx.strokeStyle = colors.selection;
      ctx.lineWidth = 2;
      ctx.strokeRect(r.x + 1, r.y + 1, r.width - 2, r.height - 2);
    }
    if (cue.id === s.focusedId) {
      ctx.strokeStyle = colors.text;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(r.x - 2.5, r.y - 2.5, r.width + 5, r.height + 5);
      ctx.setLineDash([]);
    }
  }
  flushColumn();
}

function drawCues(ctx: CanvasRenderingContext2D, s: TimelineScene) {
  const { view, colors, layout } = s;
  const { fromMs, toMs } = visibleRange(view);
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, layout.laneTop, view.widthPx, layout.laneHeight);
  const p = s.preview;
  if (!p?.everything) drawBlocks(ctx, s, s.cues, visibleCueRange(s.cues, fromMs, toMs), { skip: p?.hidden });
  if (!p) return;
  // The dragged cues where the drop puts them, over the others (found in the range shifted back).
  const range = visibleCueRange(p.cues, fromMs - p.offsetMs, toMs - p.offsetMs);
  drawBlocks(ctx, s, p.cues, range, { offsetMs: p.offsetMs, cover: p.covers });
}

function drawRecorded(ctx: CanvasRenderingContext2D, s: TimelineScene) {
  if (s.recorded.length === 0) return;
  const { fromMs, toMs } = visibleRange(s.view);
  ctx.fillStyle = s.colors.selection;
  ctx.globalAlpha = 0.85;
  for (const cue of s.recorded) {
    if (cue.stopTime < fromMs || cue.time > toMs) continue;
    const r = cueRect(s, cue);
    ctx.fillRect(r.x, r.y, r.width, r.height);
  }
  ctx.globalAlpha = 1;
}

function drawMarkers(ctx: CanvasRenderingContext2D, s: TimelineScene) {
  const { view, layout, colors } = s;
  if (s.band) {
    const x0 = msToPx(view, Math.min(s.band.fromMs, s.band.toMs));
    const x1 = msToPx(view, Math.max(s.band.fromMs, s.band.toMs));
    ctx.fillStyle = s.band.kind === 'select' ? colors.selection : colors.accent;
    ctx.globalAlpha = 0.2;
    ctx.fillRect(x0, RULER_H, x1 - x0, layout.height - RULER_H);
    ctx.globalAlpha = 1;
  }
  const line = (ms: number, colour: string, width: number) => {
    const x = Math.round(msToPx(view, ms)) + 0.5;
    if (x < -2 || x > view.widthPx + 2) return;
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, layout.height);
    ctx.stroke();
  };
  line(s.cursorMs, colors.selection, 1);
  if (s.playheadMs !== null) line(s.playheadMs, colors.text, 2);
}

/**
 * The ruler and waveform as last drawn, with what they were drawn from: frames that change only
 * the cues or markers (a drag, the playhead) copy them instead of drawing them again.
 */
export interface Backdrop {
  canvas: HTMLCanvasElement | null;
  drawnFrom: readonly unknown[];
}

export const emptyBackdrop = (): Backdrop => ({ canvas: null, drawnFrom: [] });

function backdropFor(b: Backdrop, s: TimelineScene, width: number, height: number, dpr: number) {
  const from = [s.view, s.peaks, s.colors, s.layout, dpr];
  if (b.canvas && from.every((x, k) => x === b.drawnFrom[k])) return b.canvas;
  const canvas = b.canvas ?? document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawRuler(ctx, s);
  drawWaveform(ctx, s);
  b.canvas = canvas;
  b.drawnFrom = from;
  return canvas;
}

/** One frame. `dpr` scales the backing store so lines stay crisp on dense screens. */
export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  s: TimelineScene,
  dpr: number,
  backdrop: Backdrop,
) {
  const { width, height } = ctx.canvas;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const behind = backdropFor(backdrop, s, width, height, dpr);
  if (behind) ctx.drawImage(behind, 0, 0);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (!behind) {
    drawRuler(ctx, s);
    drawWaveform(ctx, s);
  }
  drawCues(ctx, s);
  drawRecorded(ctx, s);
  drawMarkers(ctx, s);
}

export type TimelineHit =
  | { kind: 'cue'; id: number; part: 'body' | 'start' | 'stop' | 'strength' }
  | { kind: 'lane' }
  | { kind: 'wave' };

/**
 * What the pointer at (x, y) grabs: a cue's edge or body (the model's hit test along the time
 * axis), its top (strength) when near the block's upper edge; else the empty lane, or the waveform.
 */
export function hitTest(
  s: Pick<TimelineScene, 'view' | 'layout' | 'cues'>,
  x: number,
  y: number,
): TimelineHit {
  if (y < s.layout.laneTop) return { kind: 'wave' };
  const hit = hitTestX(s.cues, s.view, x, EDGE_GRAB_PX);
  if (!hit) return { kind: 'lane' };
  const cue = s.cues[hit.index];
  const r = cueRect(s, cue);
  if (hit.part !== 'body') return { kind: 'cue', id: cue.id, part: hit.part };
  if (Math.abs(y - r.y) <= EDGE_GRAB_PX) return { kind: 'cue', id: cue.id, part: 'strength' };
  // Above a weak cue's block is still its column: a press there grabs it (the lane is not for drawing over cues).
  return { kind: 'cue', id: cue.id, part: y > r.y ? 'body' : 'strength' };
}
