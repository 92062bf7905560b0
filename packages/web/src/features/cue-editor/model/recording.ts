/**
 * Recording cues while listening: holding a key (or a button on a phone) lays down a cue from
 * press to release at the current strength; changing the strength while held (number keys 1-9 and
 * 0, or a slider) ends the cue there and starts the next one at the new strength.
 *
 * finishRecording replaces everything inside the recorded span [start, finish] with the recorded
 * cues, as ONE undo step (a "punch-in": recording over a passage re-records it; cues crossing the
 * span's ends are cut at them; cues outside are kept), and selects the recorded cues.
 *
 * Times only go forward: an event earlier than the last one (a seek back while recording) is
 * taken at the last one's time. The UI should finish the recording on a seek or pause.
 */
import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { type EditorState, MIN_CUE_MS, overwriteSpan } from './cue-document';

/** Strength before any strength key is pressed. */
export const DEFAULT_RECORDING_STRENGTH = 0.5;

export interface Recording {
  /** Where recording began. */
  readonly startMs: number;
  /** The latest event time (times never go back). */
  readonly lastMs: number;
  /** The strength a press lays down. */
  readonly strength: number;
  /** Cues completed so far, in time order. */
  readonly cues: readonly HapticCue[];
  /** The cue being held: since when, at which strength; null when no key is down. */
  readonly held: { readonly since: number; readonly strength: number } | null;
}

const roundStrength = (s: number) => Math.round(Math.min(1, Math.max(0, s)) * 100) / 100;

/** The strength a number key gives: '1' → 0.1 … '9' → 0.9, '0' → 1; null for other keys. */
export function strengthForKey(key: string): number | null {
  if (key.length !== 1 || key < '0' || key > '9') return null;
  return key === '0' ? 1 : Number(key) / 10;
}

export function startRecording(atMs: number, strength = DEFAULT_RECORDING_STRENGTH): Recording {
  const at = Math.max(0, Math.round(atMs));
  return { startMs: at, lastMs: at, strength: roundStrength(strength), cues: [], held: null };
}

const forward = (rec: Recording, atMs: number) => Math.max(rec.lastMs, Math.round(atMs));

/** The held cue closed at `at` (at least MIN_CUE_MS long: a tap still makes a cue). */
function close(rec: Recording, at: number): { cues: readonly HapticCue[]; lastMs: number } {
  if (!rec.held) return { cues: rec.cues, lastMs: at };
  const stopTime = Math.max(at, rec.held.since + MIN_CUE_MS);
  const cue = { time: rec.held.since, stopTime, strength: rec.held.strength };
  return { cues: [...rec.cues, cue], lastMs: stopTime };
}

/** A key goes down: a cue starts at atMs (at the given strength, else the current one). */
export function pressKey(rec: Recording, atMs: number, strength?: number): Recording {
  if (rec.held) return rec;
  const at = forward(rec, atMs);
  const s = strength === undefined ? rec.strength : roundStrength(strength);
  return { ...rec, lastMs: at, strength: s, held: { since: at, strength: s } };
}

/** The key goes up: the held cue ends at atMs. */
export function releaseKey(rec: Recording, atMs: number): Recording {
  if (!rec.held) return rec;
  const { cues, lastMs } = close(rec, forward(rec, atMs));
  return { ...rec, cues, lastMs, held: null };
}

/** A new strength; while a key is held the cue is split at atMs (unless it is the same strength). */
export function setRecordingStrength(rec: Recording, atMs: number, strength: number): Recording {
  const s = roundStrength(strength);
  if (!rec.held || rec.held.strength === s) return { ...rec, strength: s };
  const at = forward(rec, atMs);
  if (at - rec.held.since < MIN_CUE_MS) {
    // Too short to keep as its own cue: the held cue just takes the new strength.
    return { ...rec, strength: s, lastMs: at, held: { since: rec.held.since, strength: s } };
  }
  const { cues, lastMs } = close(rec, at);
  return { ...rec, cues, strength: s, lastMs, held: { since: lastMs, strength: s } };
}

/** The cues so far, the held one drawn up to nowMs: for showing the recording as it grows. */
export function recordedCues(rec: Recording, nowMs: number): HapticCue[] {
  if (!rec.held) return [...rec.cues];
  const stopTime = Math.max(forward(rec, nowMs), rec.held.since + 1);
  return [...rec.cues, { time: rec.held.since, stopTime, strength: rec.held.strength }];
}

/**
 * Ends the recording at atMs (a held key is released there) and writes it into the document as
 * one undo step, replacing the cues inside [startMs, end]. The recorded cues are clamped to the
 * file's duration and become the selection. A recording of no time changes nothing.
 */
export function finishRecording(state: EditorState, rec: Recording, atMs: number): EditorState {
  const released = releaseKey(rec, atMs);
  const end = Math.min(Math.max(released.lastMs, forward(rec, atMs)), state.durationMs);
  const from = Math.min(released.startMs, state.durationMs);
  if (end <= from) return state;
  const cues = released.cues
    .map((c) => ({ ...c, stopTime: Math.min(c.stopTime, state.durationMs) }))
    .filter((c) => c.stopTime > c.time);
  return overwriteSpan(state, from, end, cues);
}
