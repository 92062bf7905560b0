/** The player's state for the UI: the queue (shared reducer), preferences and the playhead. */
import type { OnlinePlaySource } from '@mesmer/shared/domain/insights';
import { initialQueueState, type QueueState } from '@mesmer/shared/domain/player-queue';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { loadPreferences, loadQueue, type QueueSnapshot } from './persistence.ts';
import type { SleepTimerState } from './sleep-timer.ts';
import type { PlayerPlan, PlayerPlaylist, PlayerTrack } from './types.ts';

export type PlayerQueue = QueueState<PlayerTrack, PlayerPlan>;

export interface PlayerState {
  queue: PlayerQueue;
  playlist: PlayerPlaylist | null;
  /** Where the queue came from, sent when a track's listening session starts (insights); null: not said. */
  source: OnlinePlaySource | null;
  /** 0-100. */
  volume: number;
  /** Percent, 10-200. */
  speed: number;
  /** Loudness normalisation is on. */
  normalise: boolean;
  /** The current track's normalisation gain in dB; null when off or not known yet. */
  gainDb: number | null;
  /** The sleep timer, when one is set. */
  sleepTimer: SleepTimerState | null;
  /** The wake-up button was pressed: the track is fading out before the awakener. */
  waking: boolean;
  /** Seconds into the current track. */
  position: number;
  /** Seconds; 0 until the audio's length is known. */
  duration: number;
  /** A queue restored after a reload, waiting to be loaded paused at this position (seconds). */
  restoreAt: number | null;
  /** Training-plan progress made in this browser session (plan id → 1-based position). */
  planPositions: Record<number, number>;
}

function restoredQueue(snapshot: QueueSnapshot | null, base: PlayerQueue): PlayerQueue {
  if (!snapshot) return base;
  return {
    ...base,
    tracks: snapshot.tracks,
    index: snapshot.index,
    currentLoop: snapshot.currentLoop,
    history: snapshot.history,
    plan: snapshot.plan,
  };
}

function initialState(): PlayerState {
  const preferences = loadPreferences();
  const snapshot = loadQueue();
  return {
    queue: restoredQueue(snapshot, initialQueueState<PlayerTrack, PlayerPlan>(preferences)),
    playlist: snapshot?.playlist ?? null,
    source: null,
    volume: preferences.volume,
    speed: preferences.speed,
    normalise: preferences.normalise,
    gainDb: null,
    sleepTimer: null,
    waking: false,
    position: snapshot?.position ?? 0,
    duration: 0,
    restoreAt: snapshot ? snapshot.position : null,
    planPositions: {},
  };
}

/** A player store starting from what localStorage holds (a reload resumes from it). */
export function createPlayerStore() {
  return createStore<PlayerState>()(initialState);
}
export type PlayerStore = ReturnType<typeof createPlayerStore>;

export const playerStore = createPlayerStore();

export function usePlayer<T>(selector: (state: PlayerState) => T): T {
  return useStore(playerStore, selector);
}

/** The track selected in the queue, or null. */
export function currentTrack(state: PlayerState): PlayerTrack | null {
  return state.queue.index === -1 ? null : (state.queue.tracks[state.queue.index] ?? null);
}
