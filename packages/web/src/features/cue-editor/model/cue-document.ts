/**
 * The cue editor's model: a cue list with local ids, a selection, an undo history and a clipboard,
 * changed only by the pure functions below (each returns a new state; an operation that changes
 * nothing returns the same state, so it adds no undo step).
 *
 * Invariants of `doc.cues`: sorted by `time`, no two cues overlap (`cue.stopTime ≤ next.time`),
 * every cue has `stopTime > time`. Edited times are whole milliseconds within [0, durationMs]
 * (cues loaded beyond the end are kept, never moved further out), strengths are 0..1 rounded to
 * 0.01 (the toy has 20 levels).
 *
 * The overlap rule. The scheduler plays "the latest started cue": an earlier cue that overlaps a
 * later one is silent from the later one's start on. The editor therefore never holds overlaps:
 * - Loading or replacing the cues (createEditorState, replaceAll) trims each cue to the next
 *   cue's start — exactly what playback would do — so what is drawn is what is felt.
 * - An edit (add, move, resize, paste, recording) wins over the cues it lands on: the cues it
 *   touched keep their times; the other cues are cut around them (trimmed, or split in two when
 *   an edited cue lands inside one; the second piece gets a new id). Pieces shorter than
 *   MIN_CUE_MS are dropped.
 *
 * Drags. The model sees a drag once, when it ends: the timeline previews it on the canvas
 * (drag-preview.ts, with the same clamping rules exported below) and then calls one operation
 * with the drag's total change, which is one undo step. A cue dragged over a neighbour and back
 * therefore leaves the neighbour whole.
 */
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';

/** The shortest cue an edit makes (a resize stops here; smaller left-over pieces are dropped). */
export const MIN_CUE_MS = 10;
/** Undo steps kept; older ones are forgotten (a step holds one list of references to cues). */
export const HISTORY_LIMIT = 100;

export interface EditorCue {
  /** Local to this editing session, for selection; not saved. */
  readonly id: number;
  readonly time: number;
  readonly stopTime: number;
  readonly strength: number;
}

export interface CueDocument {
  readonly cues: readonly EditorCue[];
  /** The id the next new cue gets. */
  readonly nextId: number;
}

export type SelectMode = 'replace' | 'add' | 'toggle';
export type CueEdge = 'start' | 'stop';

export interface EditorState {
  readonly doc: CueDocument;
  readonly selection: ReadonlySet<number>;
  readonly past: readonly CueDocument[];
  readonly future: readonly CueDocument[];
  /** Copied cues, times relative to the first copied cue's start (which is 0). */
  readonly clipboard: readonly HapticCue[];
  readonly durationMs: number;
  /** The document last saved (or loaded); `isDirty` compares against it. */
  readonly savedDoc: CueDocument;
}

// --- small helpers -------------------------------------------------------------------------

const roundMs = (ms: number) => Math.round(ms);
export const roundStrength = (s: number) => Math.round(Math.min(1, Math.max(0, s)) * 100) / 100;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Index of the first cue whose `time` is ≥ ms (cues.length when none). */
export function firstStartingAtOrAfter(cues: readonly HapticCue[], ms: number): number {
  let lo = 0;
  let hi = cues.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cues[mid].time < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first cue whose `stopTime` is > ms (needs non-overlapping cues, as in a document). */
export function firstEndingAfter(cues: readonly HapticCue[], ms: number): number {
  let lo = 0;
  let hi = cues.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cues[mid].stopTime <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What playback would play: sorted by start, each cue cut at the next one's start, empty ones dropped. */
function normaliseAsPlayed(cues: readonly HapticCue[], firstId: number): CueDocument {
  const sorted = cues
    .filter(
      (c) =>
        Number.isFinite(c.time) &&
        Number.isFinite(c.stopTime) &&
        Number.isFinite(c.strength) &&
        c.stopTime > c.time,
    )
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.time - b.c.time || a.i - b.i)
    .map(({ c }) => c);
  const out: EditorCue[] = [];
  let id = firstId;
  for (let k = 0; k < sorted.length; k++) {
    const c = sorted[k];
    const next = sorted[k + 1];
    const stopTime = next && next.time < c.stopTime ? next.time : c.stopTime;
    if (stopTime <= c.time) continue;
    out.push({ id: id++, time: c.time, stopTime, strength: clamp(c.strength, 0, 1) });
  }
  return { cues: out, nextId: id };
}

/**
 * The untouched cues cut around the touched ones (both sorted and each non-overlapping), merged
 * in time order. Pieces shorter than MIN_CUE_MS are dropped; a second piece of a split gets a new id.
 */
function overwrite(
  untouched: readonly EditorCue[],
  touched: readonly EditorCue[],
  nextId: number,
): CueDocument {
  if (touched.length === 0) return { cues: untouched, nextId };
  let id = nextId;
  const pieces: EditorCue[] = [];
  let t = 0; // first touched cue that may still overlap the current untouched one
  for (const cue of untouched) {
    while (t < touched.length && touched[t].stopTime <= cue.time) t++;
    if (t >= touched.length || touched[t].time >= cue.stopTime) {
      pieces.push(cue);
      continue;
    }
    let from = cue.time;
    let first = true;
    for (let k = t; k < touched.length && touched[k].time < cue.stopTime; k++) {
      const over = touched[k];
      if (over.time - from >= MIN_CUE_MS) {
        pieces.push({ ...cue, id: first ? cue.id : id++, time: from, stopTime: over.time });
        first = false;
      }
      from = Math.max(from, over.stopTime);
    }
    if (cue.stopTime - from >= MIN_CUE_MS) pieces.push({ ...cue, id: first ? cue.id : id++, time: from });
  }
  const merged: EditorCue[] = new Array(pieces.length + touched.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < pieces.length || j < touched.length) {
    if (j >= touched.length || (i < pieces.length && pieces[i].time < touched[j].time))
      merged[n++] = pieces[i++];
    else merged[n++] = touched[j++];
  }
  return { cues: merged, nextId: id };
}

/** Applies a document change as one undo step. The selection loses cues the change removed. */
function commit(state: EditorState, doc: CueDocument, selection: ReadonlySet<number>): EditorState {
  const past = [...state.past, state.doc];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { ...state, doc, selection: pruneSelection(selection, doc), past, future: [] };
}

/** Splits `doc.cues` into those with the given ids and the rest, both in time order. */
function partition(cues: readonly EditorCue[], ids: ReadonlySet<number>): [EditorCue[], EditorCue[]] {
  const chosen: EditorCue[] = [];
  const rest: EditorCue[] = [];
  for (const cue of cues) (ids.has(cue.id) ? chosen : rest).push(cue);
  return [chosen, rest];
}

const asSet = (ids: Iterable<number>): ReadonlySet<number> => (ids instanceof Set ? ids : new Set(ids));

function pruneSelection(selection: ReadonlySet<number>, doc: CueDocument): ReadonlySet<number> {
  if (selection.size === 0) return selection;
  const present = new Set<number>();
  for (const cue of doc.cues) if (selection.has(cue.id)) present.add(cue.id);
  return present.size === selection.size ? selection : present;
}

// --- creating and reading ------------------------------------------------------------------

/** A fresh editor on the given cues (normalised as playback plays them; see the overlap rule). */
export function createEditorState(cues: readonly HapticCue[], durationMs: number): EditorState {
  const doc = normaliseAsPlayed(cues, 1);
  return {
    doc,
    selection: new Set(),
    past: [],
    future: [],
    clipboard: [],
    durationMs: Math.max(0, durationMs),
    savedDoc: doc,
  };
}

/** The cues as saved and played: `{time, stopTime, strength}` in start order. */
export function documentCues(state: EditorState): HapticCue[] {
  return state.doc.cues.map(({ time, stopTime, strength }) => ({ time, stopTime, strength }));
}

/** The selected cues in time order. */
export function selectedCues(state: EditorState): EditorCue[] {
  if (state.selection.size === 0) return [];
  return state.doc.cues.filter((c) => state.selection.has(c.id));
}

export const canUndo = (state: EditorState): boolean => state.past.length > 0;
export const canRedo = (state: EditorState): boolean => state.future.length > 0;
/** Whether the document differs from the one last saved (undoing back to it makes it clean again). */
export const isDirty = (state: EditorState): boolean => state.doc !== state.savedDoc;

/** After a successful save: the current document is the saved one. */
export function markSaved(state: EditorState): EditorState {
  return state.savedDoc === state.doc ? state : { ...state, savedDoc: state.doc };
}

// --- document operations -------------------------------------------------------------------

/** Adds a cue (times rounded and clamped to the file, at least MIN_CUE_MS long) and selects it alone. */
export function addCue(state: EditorState, time: number, stopTime: number, strength: number): EditorState {
  const doc = state.doc;
  let from = roundMs(clamp(Math.min(time, stopTime), 0, state.durationMs));
  let to = roundMs(clamp(Math.max(time, stopTime), 0, state.durationMs));
  if (to - from < MIN_CUE_MS) {
    to = Math.min(from + MIN_CUE_MS, Math.max(state.durationMs, MIN_CUE_MS));
    from = to - MIN_CUE_MS;
  }
  const cue: EditorCue = { id: doc.nextId, time: from, stopTime: to, strength: roundStrength(strength) };
  const next = overwrite(doc.cues, [cue], doc.nextId + 1);
  return commit(state, next, new Set([cue.id]));
}

/**
 * The offset a group move makes: deltaMs in whole ms, clamped so the group (sorted by time, not
 * empty) stays within [0, durationMs] (a group already past the end may only move back).
 */
export function groupMoveOffset(moving: readonly HapticCue[], deltaMs: number, durationMs: number): number {
  const first = moving[0].time;
  let last = 0;
  for (const c of moving) last = Math.max(last, c.stopTime);
  return roundMs(clamp(deltaMs, -first, Math.max(0, durationMs - last)));
}

/** Moves the cues by deltaMs as a group (their spacing kept; the offset as groupMoveOffset gives it). */
export function moveCues(state: EditorState, ids: Iterable<number>, deltaMs: number): EditorState {
  const doc = state.doc;
  const idSet = asSet(ids);
  const [moving, rest] = partition(doc.cues, idSet);
  if (moving.length === 0) return state;
  const delta = groupMoveOffset(moving, deltaMs, state.durationMs);
  if (delta === 0) return state;
  const moved = moving.map((c) => ({ ...c, time: c.time + delta, stopTime: c.stopTime + delta }));
  return commit(state, overwrite(rest, moved, doc.nextId), state.selection);
}

/** Moves the cues by ±ms (arrow keys): the same as moveCues, one undo step each. */
export function nudgeCues(state: EditorState, ids: Iterable<number>, deltaMs: number): EditorState {
  return moveCues(state, ids, deltaMs);
}

/** The cue with one edge at toMs, kept at least MIN_CUE_MS long and within the file. */
export function withEdgeAt(cue: EditorCue, edge: CueEdge, toMs: number, durationMs: number): EditorCue {
  const end = Math.max(durationMs, cue.stopTime);
  return edge === 'start'
    ? { ...cue, time: roundMs(clamp(toMs, 0, cue.stopTime - MIN_CUE_MS)) }
    : { ...cue, stopTime: roundMs(clamp(toMs, cue.time + MIN_CUE_MS, end)) };
}

/** Moves one edge of a cue to toMs (as withEdgeAt gives it). */
export function resizeCue(state: EditorState, id: number, edge: CueEdge, toMs: number): EditorState {
  const doc = state.doc;
  const cue = doc.cues.find((c) => c.id === id);
  if (!cue) return state;
  const resized = withEdgeAt(cue, edge, toMs, state.durationMs);
  if (resized.time === cue.time && resized.stopTime === cue.stopTime) return state;
  const rest = doc.cues.filter((c) => c.id !== id);
  return commit(state, overwrite(rest, [resized], doc.nextId), state.selection);
}

function mapStrength(state: EditorState, ids: Iterable<number>, to: (s: number) => number): EditorState {
  const doc = state.doc;
  const idSet = asSet(ids);
  let changed = false;
  const cues = doc.cues.map((c) => {
    if (!idSet.has(c.id)) return c;
    const strength = roundStrength(to(c.strength));
    if (strength === c.strength) return c;
    changed = true;
    return { ...c, strength };
  });
  if (!changed) return state;
  return commit(state, { cues, nextId: doc.nextId }, state.selection);
}

/** Sets the strength of the cues (clamped to 0..1, rounded to 0.01). */
export function setStrength(state: EditorState, ids: Iterable<number>, strength: number): EditorState {
  if (!Number.isFinite(strength)) return state;
  return mapStrength(state, ids, () => strength);
}

/** Changes the strength of each cue by delta (keys or a vertical drag of several cues), clamped. */
export function changeStrength(state: EditorState, ids: Iterable<number>, delta: number): EditorState {
  if (!Number.isFinite(delta)) return state;
  return mapStrength(state, ids, (s) => s + delta);
}

/** Deletes the cues and drops them from the selection. */
export function removeCues(state: EditorState, ids: Iterable<number>): EditorState {
  const doc = state.doc;
  const idSet = asSet(ids);
  const cues = doc.cues.filter((c) => !idSet.has(c.id));
  if (cues.length === doc.cues.length) return state;
  const next = { cues, nextId: doc.nextId };
  return commit(state, next, state.selection);
}

/** Puts the cues on the clipboard (times relative to the first one's start). Not an undo step. */
export function copyCues(state: EditorState, ids: Iterable<number>): EditorState {
  const idSet = asSet(ids);
  const chosen = state.doc.cues.filter((c) => idSet.has(c.id));
  if (chosen.length === 0) return state;
  const origin = chosen[0].time;
  const clipboard = chosen.map((c) => ({
    time: c.time - origin,
    stopTime: c.stopTime - origin,
    strength: c.strength,
  }));
  return { ...state, clipboard };
}

/** Copy, then delete (one undo step, for the delete). */
export function cutCues(state: EditorState, ids: Iterable<number>): EditorState {
  const idSet = asSet(ids);
  return removeCues(copyCues(state, idSet), idSet);
}

/**
 * Pastes the clipboard with its first cue starting at atMs (moved back if it would run past the
 * end; cues still past the end are dropped). The pasted cues get new ids, win over what they land
 * on, and become the selection.
 */
export function pasteCues(state: EditorState, atMs: number): EditorState {
  const doc = state.doc;
  if (state.clipboard.length === 0) return state;
  const span = state.clipboard.reduce((m, c) => Math.max(m, c.stopTime), 0);
  const at = roundMs(clamp(atMs, 0, Math.max(0, state.durationMs - span)));
  let id = doc.nextId;
  const pasted: EditorCue[] = [];
  for (const c of state.clipboard) {
    const time = roundMs(at + c.time);
    const stopTime = Math.min(roundMs(at + c.stopTime), state.durationMs);
    if (stopTime <= time) continue;
    pasted.push({ id: id++, time, stopTime, strength: c.strength });
  }
  if (pasted.length === 0) return state;
  const next = overwrite(doc.cues, pasted, id);
  return commit(state, next, new Set(pasted.map((c) => c.id)));
}

/**
 * Replaces every cue (an import): one undo step, normalised like a load, selection cleared.
 * The imported cues get new ids.
 */
export function replaceAll(state: EditorState, cues: readonly HapticCue[]): EditorState {
  const doc = state.doc;
  return commit(state, normaliseAsPlayed(cues, doc.nextId), new Set());
}

// --- selection (never an undo step) ----------------------------------------------------------

export function select(state: EditorState, ids: Iterable<number>, mode: SelectMode = 'replace'): EditorState {
  const present = new Set(state.doc.cues.map((c) => c.id));
  const chosen = [...ids].filter((id) => present.has(id));
  let selection: Set<number>;
  if (mode === 'replace') selection = new Set(chosen);
  else {
    selection = new Set(state.selection);
    for (const id of chosen) {
      if (mode === 'toggle' && selection.has(id)) selection.delete(id);
      else selection.add(id);
    }
  }
  return { ...state, selection };
}

/** Selects the cues that overlap [fromMs, toMs] (a rubber band; the ends may come in any order). */
export function selectInRange(
  state: EditorState,
  fromMs: number,
  toMs: number,
  mode: SelectMode = 'replace',
): EditorState {
  const from = Math.min(fromMs, toMs);
  const to = Math.max(fromMs, toMs);
  const cues = state.doc.cues;
  const ids: number[] = [];
  for (let k = firstEndingAfter(cues, from); k < cues.length && cues[k].time < to; k++) ids.push(cues[k].id);
  return select(state, ids, mode);
}

export function selectAll(state: EditorState): EditorState {
  return { ...state, selection: new Set(state.doc.cues.map((c) => c.id)) };
}

export function clearSelection(state: EditorState): EditorState {
  return state.selection.size === 0 ? state : { ...state, selection: new Set() };
}

// --- history ---------------------------------------------------------------------------------

export function undo(state: EditorState): EditorState {
  if (!canUndo(state)) return state;
  const doc = state.past[state.past.length - 1];
  return {
    ...state,
    doc,
    past: state.past.slice(0, -1),
    future: [state.doc, ...state.future],
    selection: pruneSelection(state.selection, doc),
  };
}

export function redo(state: EditorState): EditorState {
  if (!canRedo(state)) return state;
  const doc = state.future[0];
  return {
    ...state,
    doc,
    past: [...state.past, state.doc],
    future: state.future.slice(1),
    selection: pruneSelection(state.selection, doc),
  };
}

/**
 * For recording.ts: the cues in [fromMs, toMs] replaced by `recorded` (sorted, not overlapping);
 * cues across the span's ends are cut at them. One undo step; the recorded cues are selected.
 */
export function overwriteSpan(
  state: EditorState,
  fromMs: number,
  toMs: number,
  recorded: readonly HapticCue[],
): EditorState {
  const doc = state.doc;
  // The span acts as one edited (silent) cue, so the overlap rule clears it; then it is taken out.
  const span: EditorCue = { id: -1, time: fromMs, stopTime: toMs, strength: 0 };
  const cleared = overwrite(doc.cues, [span], doc.nextId);
  const kept = cleared.cues.filter((c) => c !== span);
  const unchanged = kept.length === doc.cues.length && kept.every((c, k) => c === doc.cues[k]);
  if (recorded.length === 0 && unchanged) return state;
  let id = cleared.nextId;
  const cues: EditorCue[] = recorded.map((c) => ({
    id: id++,
    time: c.time,
    stopTime: c.stopTime,
    strength: c.strength,
  }));
  return commit(state, overwrite(kept, cues, id), new Set(cues.map((c) => c.id)));
}
