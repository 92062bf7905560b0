import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { type PointerEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type DragPreview, dragPreviewOf, type TimelineGesture } from './drag-preview.ts';
import type { EditorCue, SelectMode } from './model/cue-document.ts';
import {
  clampView,
  fitView,
  pxToMs,
  scrollBy,
  type TimelineView,
  ZOOM_STEP,
  zoomAt,
} from './model/timeline.ts';
import {
  drawTimeline,
  emptyBackdrop,
  hitTest,
  readColors,
  strengthAt,
  type TimelineColors,
  type TimelineScene,
  timelineLayout,
} from './timeline-canvas.ts';
import type { PeakWindow } from './timeline-view.ts';

/** Below this many px a press is a click, not a drag. */
const DRAG_THRESHOLD_PX = 3;

type Drag =
  | {
      type: 'gesture';
      startX: number;
      startY: number;
      started: boolean;
      make: (x: number, y: number) => TimelineGesture;
      preview: (gesture: TimelineGesture) => DragPreview;
    }
  | {
      type: 'band';
      kind: 'select' | 'add';
      fromMs: number;
      toMs: number;
      startX: number;
      started: boolean;
      additive: boolean;
    }
  | null;

export interface TimelineProps {
  cues: readonly EditorCue[];
  selection: ReadonlySet<number>;
  focusedId: number | null;
  durationMs: number;
  peaks: readonly PeakWindow[];
  view: TimelineView;
  onView: (view: TimelineView) => void;
  cursorMs: number;
  onCursor: (ms: number) => void;
  /** The playhead in ms when this file is the player's current track. */
  playhead: () => number | null;
  /** Cues being recorded (drawn every frame while animating). */
  recorded: () => readonly HapticCue[];
  /** While true the canvas redraws every frame (the playhead moves). */
  animating: boolean;
  snap: (ms: number) => number;
  /** Strength of cues drawn by click-and-drag. */
  newStrength: number;
  onSelect: (ids: number[], mode: SelectMode) => void;
  onSelectRange: (fromMs: number, toMs: number, additive: boolean) => void;
  onAdd: (fromMs: number, toMs: number, strength: number) => void;
  /** A finished drag of cues (previewed here while it lasted): the editor applies it as one undo step. */
  onGesture: (gesture: TimelineGesture) => void;
  height: number;
  label: string;
}

const CURSORS: Record<string, string> = {
  start: 'ew-resize',
  stop: 'ew-resize',
  strength: 'ns-resize',
  body: 'grab',
  lane: 'crosshair',
  wave: 'text',
};

/**
 * The cue timeline: ruler, waveform and cue lane on one canvas. Pointer: drag on the empty lane
 * draws a cue; a block's body moves the selection, its edges resize it, its top sets strength;
 * Shift or Ctrl+click adds to the selection; dragging over the waveform (or Shift+drag in the
 * lane) selects the cues in that stretch; a click on the waveform places the cursor.
 * Ctrl+wheel zooms around the pointer, the wheel scrolls. Keys are the editor's (editor-keys.ts).
 */
export function Timeline(props: TimelineProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(props.view.widthPx);
  const [colors, setColors] = useState<TimelineColors | null>(null);
  const drag = useRef<Drag>(null);
  const [band, setBand] = useState<TimelineScene['band']>(null);
  // Kept out of React state: a drag repaints the canvas and renders nothing, here or in the editor.
  const preview = useRef<DragPreview | null>(null);
  const layout = useMemo(() => timelineLayout(props.height), [props.height]);

  // Everything a frame needs, kept in a ref so the animation loop always draws the latest props.
  const scene = useRef<TimelineScene | null>(null);
  scene.current = colors && {
    view: props.view,
    layout,
    durationMs: props.durationMs,
    cues: props.cues,
    selection: props.selection,
    peaks: props.peaks,
    playheadMs: props.playhead(),
    cursorMs: props.cursorMs,
    band,
    focusedId: props.focusedId,
    recorded: [],
    preview: null,
    colors,
  };
  const latest = useRef(props);
  latest.current = props;

  // Width from the box; colours from the theme (and again when it changes).
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () => setWidth(Math.max(1, Math.floor(box.clientWidth)));
    measure();
    setColors(readColors());
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(box);
    const theme = new MutationObserver(() => setColors(readColors()));
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      resize?.disconnect();
      theme.disconnect();
    };
  }, []);

  useEffect(() => {
    const { view, durationMs, onView } = latest.current;
    if (width === view.widthPx) return;
    // A wider box shows more of the file at the same zoom; the whole file stays whole.
    const wasWhole = view.widthPx <= 1 || view.msPerPx * view.widthPx >= durationMs;
    onView(wasWhole ? fitView(durationMs, width) : clampView({ ...view, widthPx: width }, durationMs));
  }, [width]);

  // Draw: once per change, per pointer move of a drag, and every frame while the playhead moves.
  const frame = useRef(0);
  const backdrop = useRef(emptyBackdrop());
  const paint = () => {
    frame.current = 0;
    const canvas = canvasRef.current;
    const s = scene.current;
    if (!canvas || !s) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(s.view.widthPx * dpr);
    const h = Math.round(s.layout.height * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    drawTimeline(
      ctx,
      {
        ...s,
        playheadMs: latest.current.playhead(),
        recorded: latest.current.recorded(),
        preview: preview.current,
      },
      dpr,
      backdrop.current,
    );
  };
  const requestPaint = () => {
    if (frame.current === 0) frame.current = requestAnimationFrame(paint);
  };
  useEffect(requestPaint);
  // biome-ignore lint/correctness/useExhaustiveDependencies: paint reads the latest scene from refs
  useEffect(() => {
    if (!props.animating) return;
    let id = 0;
    const loop = () => {
      paint();
      id = requestAnimationFrame(loop);
    };
    id = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(id);
  }, [props.animating]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  // Ctrl+wheel zooms, the wheel scrolls: a non-passive listener, so the page does not zoom or scroll.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      const p = latest.current;
      const x = e.clientX - canvas.getBoundingClientRect().left;
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        p.onView(zoomAt(p.view, e.deltaY > 0 ? ZOOM_STEP : 1 / ZOOM_STEP, x, p.durationMs));
      } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
        e.preventDefault();
        p.onView(scrollBy(p.view, e.shiftKey ? e.deltaY : e.deltaX, p.durationMs));
      }
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, []);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    const p = latest.current;
    const s = scene.current;
    if (!s) return;
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const { x, y } = point(e);
    const ms = pxToMs(p.view, x);
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    const hit = hitTest(s, x, y);
    if (hit.kind === 'wave' || (hit.kind === 'lane' && additive)) {
      drag.current = {
        type: 'band',
        kind: 'select',
        fromMs: ms,
        toMs: ms,
        startX: x,
        started: false,
        additive,
      };
      return;
    }
    if (hit.kind === 'lane') {
      const from = p.snap(ms);
      drag.current = {
        type: 'band',
        kind: 'add',
        fromMs: from,
        toMs: from,
        startX: x,
        started: false,
        additive,
      };
      return;
    }
    const cue = p.cues.find((c) => c.id === hit.id);
    if (!cue) return;
    if (additive) {
      p.onSelect([hit.id], e.shiftKey ? 'add' : 'toggle');
      if (!e.shiftKey && p.selection.has(hit.id)) return;
    } else if (!p.selection.has(hit.id)) {
      p.onSelect([hit.id], 'replace');
    }
    const ids = p.selection.has(hit.id) ? [...p.selection] : [hit.id];
    if (additive && !ids.includes(hit.id)) ids.push(hit.id);
    const view = p.view;
    const make = (mx: number, my: number): TimelineGesture => {
      const at = pxToMs(view, mx);
      if (hit.part === 'start' || hit.part === 'stop') {
        return { kind: 'resize', id: hit.id, edge: hit.part, toMs: latest.current.snap(at) };
      }
      if (hit.part === 'strength') {
        return {
          kind: 'strength',
          ids,
          delta: Math.round((strengthAt(s.layout, my) - cue.strength) * 100) / 100,
        };
      }
      const raw = at - ms;
      return { kind: 'move', ids, deltaMs: latest.current.snap(cue.time + raw) - cue.time };
    };
    drag.current = {
      type: 'gesture',
      startX: x,
      startY: y,
      started: false,
      make,
      preview: dragPreviewOf(
        p.cues,
        hit.part === 'start' || hit.part === 'stop' ? [hit.id] : ids,
        p.durationMs,
      ),
    };
  };

  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const p = latest.current;
    const { x, y } = point(e);
    const d = drag.current;
    if (!d) {
      const s = scene.current;
      if (s) {
        const hit = hitTest(s, x, y);
        e.currentTarget.style.cursor = CURSORS[hit.kind === 'cue' ? hit.part : hit.kind];
      }
      return;
    }
    if (d.type === 'gesture') {
      if (!d.started && Math.hypot(x - d.startX, y - d.startY) < DRAG_THRESHOLD_PX) return;
      d.started = true;
      preview.current = d.preview(d.make(x, y));
      requestPaint();
      return;
    }
    if (!d.started && Math.abs(x - d.startX) < DRAG_THRESHOLD_PX) return;
    d.started = true;
    const ms = Math.min(p.durationMs, Math.max(0, pxToMs(p.view, x)));
    d.toMs = d.kind === 'add' ? p.snap(ms) : ms;
    setBand({ fromMs: d.fromMs, toMs: d.toMs, kind: d.kind });
  };

  const finish = (e: PointerEvent<HTMLCanvasElement>, cancelled: boolean) => {
    const p = latest.current;
    const d = drag.current;
    drag.current = null;
    setBand(null);
    if (!d) return;
    const { x, y } = point(e);
    if (d.type === 'gesture') {
      preview.current = null;
      requestPaint();
      if (d.started && !cancelled) p.onGesture(d.make(x, y));
      return;
    }
    if (cancelled) return;
    if (!d.started) {
      // A click: the cursor goes there; on the empty lane it also clears the selection.
      p.onCursor(Math.min(p.durationMs, Math.max(0, pxToMs(p.view, x))));
      if (!d.additive) p.onSelect([], 'replace');
      return;
    }
    const from = Math.min(d.fromMs, d.toMs);
    const to = Math.max(d.fromMs, d.toMs);
    if (d.kind === 'select') p.onSelectRange(from, to, d.additive);
    else if (to > from) p.onAdd(from, to, p.newStrength);
  };

  const selected = props.cues.filter((c) => props.selection.has(c.id)).length;
  return (
    <div ref={boxRef} style={{ width: '100%' }}>
      {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a keyboard-driven widget; its state is announced by the editor's live region */}
      <canvas
        ref={canvasRef}
        tabIndex={0}
        role="application"
        aria-roledescription="cue timeline"
        aria-label={`${props.label}. ${props.cues.length} cues, ${selected} selected. Press ? for shortcuts.`}
        style={{ width: '100%', height: props.height, display: 'block', touchAction: 'pan-y' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(e) => finish(e, false)}
        onPointerCancel={(e) => finish(e, true)}
        data-testid="cue-timeline"
        // Where the view is, for journeys and the frame-time bench to aim at blocks.
        data-scroll-ms={Math.round(props.view.scrollMs)}
        data-ms-per-px={props.view.msPerPx}
      />
    </div>
  );
}
