/**
 * What the player keeps in localStorage: the listener's preferences, and the queue with
 * the position so a reload resumes where it was (paused).
 */
import {
  DEFAULT_QUEUE_PREFERENCES,
  isLoopMode,
  parseLoopCount,
  type QueuePreferences,
} from '@mesmer/shared/domain/player-queue';
import type { PlayerPlan, PlayerPlaylist, PlayerTrack } from './types.ts';

export const PREFERENCES_KEY = 'player.preferences';
export const QUEUE_KEY = 'player.queue';

export const SPEED_RANGE = { min: 10, max: 200, step: 10, default: 100 } as const;
export const VOLUME_RANGE = { min: 0, max: 100, default: 100 } as const;

export interface PlayerPreferences extends QueuePreferences {
  /** 0-100. */
  volume: number;
  /** Percent, 10-200 in steps of 10. */
  speed: number;
  /** Loudness normalisation to about -16 LUFS (on unless switched off). */
  normalise: boolean;
}

export const DEFAULT_PREFERENCES: PlayerPreferences = {
  ...DEFAULT_QUEUE_PREFERENCES,
  volume: VOLUME_RANGE.default,
  speed: SPEED_RANGE.default,
  normalise: true,
};

export function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return VOLUME_RANGE.default;
  return Math.min(VOLUME_RANGE.max, Math.max(VOLUME_RANGE.min, Math.round(volume)));
}

/** The nearest allowed speed: 10-200 % in steps of 10. */
export function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return SPEED_RANGE.default;
  const stepped = Math.round(speed / SPEED_RANGE.step) * SPEED_RANGE.step;
  return Math.min(SPEED_RANGE.max, Math.max(SPEED_RANGE.min, stepped));
}

export interface QueueSnapshot {
  tracks: PlayerTrack[];
  index: number;
  /** Seconds into the current track. */
  position: number;
  currentLoop: number;
  history: number[];
  playlist: PlayerPlaylist | null;
  plan: PlayerPlan | null;
}

function read(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the player still works, it just forgets on reload.
  }
}

/** Stored preferences, each one checked; anything missing or invalid takes its default. */
export function loadPreferences(): PlayerPreferences {
  const stored = read(PREFERENCES_KEY);
  if (typeof stored !== 'object' || stored === null) return DEFAULT_PREFERENCES;
  const p = stored as Record<string, unknown>;
  return {
    volume: typeof p.volume === 'number' ? clampVolume(p.volume) : DEFAULT_PREFERENCES.volume,
    speed: typeof p.speed === 'number' ? clampSpeed(p.speed) : DEFAULT_PREFERENCES.speed,
    loopMode: isLoopMode(p.loopMode) ? p.loopMode : DEFAULT_PREFERENCES.loopMode,
    loopCount: parseLoopCount(p.loopCount),
    shuffle: p.shuffle === true,
    normalise: p.normalise !== false,
  };
}

export function savePreferences(preferences: PlayerPreferences) {
  write(PREFERENCES_KEY, preferences);
}

/** The stored queue, or null when there is none or it does not look like one. */
export function loadQueue(): QueueSnapshot | null {
  const stored = read(QUEUE_KEY) as Partial<QueueSnapshot> | null;
  if (!stored || !Array.isArray(stored.tracks) || typeof stored.index !== 'number') return null;
  const { tracks, index } = stored;
  if (index < 0 || index >= tracks.length) return null;
  if (!tracks.every((t) => typeof t?.uuid === 'string' && typeof t?.id === 'number')) return null;
  return {
    tracks,
    index,
    position: typeof stored.position === 'number' && stored.position > 0 ? stored.position : 0,
    currentLoop: typeof stored.currentLoop === 'number' ? stored.currentLoop : 0,
    history: Array.isArray(stored.history) ? stored.history.filter((i) => Number.isInteger(i)) : [index],
    playlist: stored.playlist ?? null,
    plan: stored.plan ?? null,
  };
}

export function saveQueue(snapshot: QueueSnapshot | null) {
  write(QUEUE_KEY, snapshot);
}
