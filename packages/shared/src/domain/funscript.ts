/**
 * Funscript → haptic cues (reference/integrations.md: Funscript). A Funscript is
 * `{"version": "1.0", "inverted": false, "range": 90, "actions": [{"at": <ms>, "pos": 0-100}, ...]}`,
 * written for strokers: it says where to be and when. A vibrating toy has no position, so the
 * conversion turns movement into vibration:
 *
 * 1. Actions are sorted by `at`; of several at the same time the last one counts.
 * 2. `inverted` flips each position (pos → 100 − pos); `range` (1-100, default 100) limits travel,
 *    so positions are scaled by range / 100. (Flipping never changes how fast the position moves;
 *    it is applied so that the scaled positions are the ones a stroker would reach.)
 * 3. Each pair of neighbouring actions a → b becomes one cue from a.at to b.at whose strength is
 *    the speed of the move, |b.pos − a.pos| / (b.at − a.at) positions per millisecond, divided by
 *    FULL_STRENGTH_SPEED and capped at 1, rounded to two decimals. A full 0 → 100 stroke in 200 ms
 *    or faster vibrates at full strength; the same stroke over 2 s at 0.1.
 * 4. A pause (no position change, or a strength that rounds to 0) gives no cue: the toy stops.
 *    Neighbouring cues of the same strength that touch are merged into one.
 *
 * Timing therefore comes from the action times and strength from the speed of change.
 */
import { type Checked, MAX_CUES } from './attachments.ts';
import type { HapticCue } from './haptic-cues.ts';

/** Positions per millisecond that vibrate at full strength: a whole stroke (100) in 200 ms. */
export const FULL_STRENGTH_SPEED = 0.5;

interface FunscriptAction {
  at: number;
  pos: number;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** The actions of a Funscript, checked strictly: the first bad entry is named by its 1-based position. */
function checkFunscript(
  data: unknown,
): Checked<{ actions: FunscriptAction[]; inverted: boolean; range: number }> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail('A funscript must be a JSON object with an actions list.');
  }
  const { actions, inverted = false, range = 100 } = data as Record<string, unknown>;
  if (typeof inverted !== 'boolean') return fail('inverted must be true or false.');
  if (!isNumber(range) || range <= 0 || range > 100) return fail('range must be a number from 1 to 100.');
  if (!Array.isArray(actions)) return fail('A funscript must have an actions list.');
  if (actions.length < 2) return fail('A funscript needs at least two actions.');
  if (actions.length > MAX_CUES) return fail(`A funscript may have at most ${MAX_CUES} actions.`);
  const checked: FunscriptAction[] = [];
  for (const [index, action] of actions.entries()) {
    const at = `Action ${index + 1}`;
    if (typeof action !== 'object' || action === null) return fail(`${at}: must be an object {at, pos}.`);
    const { at: time, pos } = action as Record<string, unknown>;
    if (!isNumber(time) || time < 0) return fail(`${at}: at must be a number of milliseconds ≥ 0.`);
    if (!isNumber(pos) || pos < 0 || pos > 100) return fail(`${at}: pos must be a number from 0 to 100.`);
    checked.push({ at: time, pos });
  }
  return { ok: true, value: { actions: checked, inverted, range } };
}

/** Sorted by time; of actions at the same time, the last in the file. */
function byTime(actions: FunscriptAction[]): FunscriptAction[] {
  const sorted = actions.map((a, i) => ({ ...a, i })).sort((a, b) => a.at - b.at || a.i - b.i);
  return sorted.filter((a, k) => k === sorted.length - 1 || sorted[k + 1].at !== a.at);
}

/** The cues of a parsed Funscript (the mapping above), or why it cannot be converted. */
export function funscriptToCues(data: unknown): Checked<HapticCue[]> {
  const script = checkFunscript(data);
  if (!script.ok) return script;
  const { inverted, range } = script.value;
  const positions = byTime(script.value.actions).map((a) => ({
    at: a.at,
    pos: ((inverted ? 100 - a.pos : a.pos) * range) / 100,
  }));
  const cues: HapticCue[] = [];
  for (let k = 1; k < positions.length; k++) {
    const from = positions[k - 1];
    const to = positions[k];
    const speed = Math.abs(to.pos - from.pos) / (to.at - from.at);
    const strength = Math.round(Math.min(1, speed / FULL_STRENGTH_SPEED) * 100) / 100;
    if (strength === 0) continue;
    const last = cues.at(-1);
    if (last && last.stopTime === from.at && last.strength === strength) last.stopTime = to.at;
    else cues.push({ time: from.at, stopTime: to.at, strength });
  }
  if (cues.length === 0) return fail('The funscript never moves, so it gives no vibration.');
  return { ok: true, value: cues };
}

export interface Funscript {
  version: '1.0';
  inverted: false;
  range: 100;
  actions: FunscriptAction[];
}

/** Positions are written with at most 3 decimals: enough for funscriptToCues to give back each strength. */
const roundPos = (pos: number) => Math.round(pos * 1000) / 1000;

/**
 * Haptic cues → a Funscript that funscriptToCues turns back into the same cues (the inverse of the
 * mapping above). Cues are first taken as playback plays them (each cut at the next one's start).
 * A cue of strength s from t0 to t1 becomes strokes moving at s × FULL_STRENGTH_SPEED positions per
 * millisecond, each stroke at most 49 positions, up and down (a long cue makes several of about
 * equal length). Between cues the position holds still, so there is no vibration.
 * Cues of strength 0 are pauses. Strengths come back rounded to two decimals and touching cues
 * of the same strength come back as one, as for any Funscript; positions may have decimals.
 */
export function cuesToFunscript(cues: readonly HapticCue[]): Checked<Funscript> {
  const sorted = [...cues].filter((c) => c.stopTime > c.time).sort((a, b) => a.time - b.time);
  const actions: FunscriptAction[] = [];
  let pos = 0;
  const at = (time: number, position: number) => {
    const last = actions.at(-1);
    if (last && last.at === time) last.pos = position;
    else actions.push({ at: time, pos: position });
  };
  for (const [k, cue] of sorted.entries()) {
    const next = sorted[k + 1];
    const stopTime = next && next.time < cue.stopTime ? next.time : cue.stopTime;
    const strength = Math.min(1, Math.max(0, cue.strength));
    if (stopTime <= cue.time || strength === 0) continue;
    const speed = strength * FULL_STRENGTH_SPEED;
    // At most 49 positions a stroke, so it always fits on the roomier side of the current position
    // (49, not 50: whole-millisecond stroke boundaries may lengthen a stroke by up to 1 ms).
    const strokes = Math.max(1, Math.ceil((speed * (stopTime - cue.time)) / 49));
    at(cue.time, pos);
    let from = cue.time;
    for (let s = 1; s <= strokes; s++) {
      const to = s === strokes ? stopTime : cue.time + Math.round(((stopTime - cue.time) * s) / strokes);
      const travel = speed * (to - from);
      pos = roundPos(pos <= 50 ? pos + travel : pos - travel);
      at(to, pos);
      from = to;
    }
  }
  if (actions.length < 2) return fail('There are no cues with a strength above 0 to export.');
  return { ok: true, value: { version: '1.0', inverted: false, range: 100, actions } };
}
