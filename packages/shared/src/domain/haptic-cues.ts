/**
 * Haptic cue scheduling: which vibration level a toy should have at a playback time.
 * A cue file is a JSON list of `{time, stopTime, strength}` (milliseconds, strength 0-1).
 * A cue starts when playback passes `time − offset` and stops at `stopTime − offset`,
 * where the offset (-1000..1000 ms, the user's setting) lets a slow toy start early.
 * The player polls `stepHaptics` every 10 ms and sends only the changes to the device.
 */
import { MAX_VIBRATION_RANGE } from './haptics-settings.ts';

export interface HapticCue {
  /** ms into the track. */
  time: number;
  stopTime: number;
  /** 0 to 1. */
  strength: number;
}

/** The device level range: 0 (off) to 20. */
export const MAX_DEVICE_LEVEL = 20;
/** How often the player checks the cues. */
export const HAPTICS_POLL_MS = 10;

// Float products such as 0.15 × 20 land a hair above the whole number.
const ceil = (n: number) => Math.ceil(n - 1e-9);

/**
 * The device level for a cue strength: ceil(strength × 20), scaled by maxVibration / 100
 * (rounded up), at least 1 for any positive strength and never above 20.
 */
export function vibrationLevel(strength: number, maxVibration: number): number {
  if (!(strength > 0)) return 0;
  const max = Math.min(MAX_VIBRATION_RANGE.max, Math.max(MAX_VIBRATION_RANGE.min, maxVibration || 0));
  const base = ceil(Math.min(1, strength) * MAX_DEVICE_LEVEL);
  return Math.min(MAX_DEVICE_LEVEL, Math.max(1, ceil((base * max) / 100)));
}

/** The cues of a cue file, in start order; malformed entries are dropped. */
export function parseHapticCues(data: unknown): HapticCue[] {
  if (!Array.isArray(data)) return [];
  return data
    .filter(
      (c): c is HapticCue =>
        typeof c === 'object' &&
        c !== null &&
        Number.isFinite(c.time) &&
        Number.isFinite(c.stopTime) &&
        Number.isFinite(c.strength) &&
        c.stopTime > c.time,
    )
    .map((c) => ({ time: c.time, stopTime: c.stopTime, strength: c.strength }))
    .sort((a, b) => a.time - b.time);
}

export interface HapticScheduleState {
  /** The next cue not yet started. */
  cursor: number;
  /** The latest started cue, -1 when none. */
  active: number;
  /** The level last sent to the device (0 = stopped). */
  level: number;
  /** The playback time of the last step; going back means a seek. */
  lastTime: number;
}

export type HapticCommand = { type: 'vibrate'; level: number } | { type: 'stop' };

export interface HapticStep {
  state: HapticScheduleState;
  /** What to send to the device, or null when nothing changes. */
  command: HapticCommand | null;
}

export interface HapticSettings {
  /** -1000..1000 ms; a cue fires when playback passes cue.time − offset. */
  offsetMs: number;
  /** 1..100. */
  maxVibration: number;
}

export function initialHapticState(): HapticScheduleState {
  return { cursor: 0, active: -1, level: 0, lastTime: 0 };
}

/** After a seek the cue position is found again from the start (the level stays until the next step). */
export function resetHapticCursor(state: HapticScheduleState): HapticScheduleState {
  return { ...state, cursor: 0, active: -1, lastTime: 0 };
}

function commandFor(level: number, previous: number): HapticCommand | null {
  if (level === previous) return null;
  return level === 0 ? { type: 'stop' } : { type: 'vibrate', level };
}

/** One poll: the vibration level at playback time `timeMs`. When cues overlap, the latest started wins. */
export function stepHaptics(
  state: HapticScheduleState,
  cues: readonly HapticCue[],
  timeMs: number,
  settings: HapticSettings,
): HapticStep {
  let { cursor, active } = timeMs < state.lastTime ? resetHapticCursor(state) : state;
  while (cursor < cues.length && cues[cursor].time - settings.offsetMs <= timeMs) {
    active = cursor;
    cursor += 1;
  }
  const cue = active >= 0 ? cues[active] : null;
  const level =
    cue && cue.stopTime - settings.offsetMs > timeMs
      ? vibrationLevel(cue.strength, settings.maxVibration)
      : 0;
  return { state: { cursor, active, level, lastTime: timeMs }, command: commandFor(level, state.level) };
}

/** Playback paused or stopped: the toy stops, and the next step finds its cue again. */
export function stopHaptics(state: HapticScheduleState): HapticStep {
  return { state: { ...resetHapticCursor(state), level: 0 }, command: commandFor(0, state.level) };
}
