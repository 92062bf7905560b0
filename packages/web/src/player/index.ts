/**
 * What the library screens call to play something, and what other features may read
 * from the player. The engine lives in engine.ts; the queue rules in shared/domain/player-queue.ts.
 */
import type { AudioFile } from '@mesmer/shared/api/files';
import type { OnlinePlaySource } from '@mesmer/shared/domain/insights';
import { CURRENT_ELEMENT_ID } from './audio-element.ts';
import type { HapticDevice } from './haptics.ts';
import { playerControls } from './instance.ts';
import { currentTrack, playerStore, usePlayer } from './store.ts';

/** What a toy driver implements (decision 006); the drivers are in library/toys. */
export type { HapticDevice } from './haptics.ts';

export interface PlayRequest {
  /** The queue, in order. Disabled entries are kept but skipped. */
  files: (AudioFile & { disabled?: boolean })[];
  /** Index into files of the track to start with. */
  startIndex: number;
  /** The playlist the queue comes from, if any. */
  playlist?: { id: number; uuid: string; name: string };
  /**
   * The training plan and day (0-based) the queue comes from, if any. `position` (optional)
   * is the listener's 1-based progress as the page knows it; signed-in progress is read from
   * and saved to the server when the day's last track finishes.
   */
  plan?: { id: number; uuid: string; name: string; dayIndex: number; dayCount: number; position?: number };
  /** Where the queue comes from, for the creator's insights ('training-plan' by default with a plan). */
  source?: OnlinePlaySource;
}

/** Replaces the queue and starts playing at `startIndex` (or the first playable track after it). */
export function play(request: PlayRequest): void {
  playerControls.play(request);
}

/**
 * Connects a haptic toy driver (null disconnects); cues of haptic tracks then drive it.
 * The seam for toy drivers (decision 006, library/toys).
 */
export function setHapticDevice(device: HapticDevice | null): void {
  playerControls.setHapticDevice(device);
}

/** The file playing or paused in the player bar, if any (e.g. to highlight it in a track list). */
export function useCurrentFileId(): number | null {
  return usePlayer((s) => (s.queue.index === -1 ? null : (s.queue.tracks[s.queue.index]?.id ?? null)));
}

/**
 * Training-plan progress made in the player during this browser session: the position after
 * the last day finished here (also saved on the server for signed-in listeners), or undefined
 * when no day of the plan was finished yet. Visitors' progress lives only here.
 */
export function useLocalPlanPosition(planId: number): number | undefined {
  return usePlayer((s) => s.planPositions[planId]);
}

/**
 * How far the player is into file `fileId`, from 0 to 1, or null when that file is not the
 * current track (or its length is not known yet). For a waveform's playback progress.
 */
export function usePlaybackProgress(fileId: number): number | null {
  return usePlayer((s) => {
    const track = s.queue.index === -1 ? null : s.queue.tracks[s.queue.index];
    if (track?.id !== fileId || s.duration <= 0) return null;
    return Math.min(1, Math.max(0, s.position / s.duration));
  });
}

/**
 * Where the player is in file `fileId`, in ms, read from the playing element itself (finer than
 * the quarter-second position the store keeps), or null when that file is not the current track.
 * For timing against the audio (the cue editor records and previews with it).
 */
export function playheadMs(fileId: number): number | null {
  const state = playerStore.getState();
  if (currentTrack(state)?.id !== fileId) return null;
  const element = typeof document === 'undefined' ? null : document.getElementById(CURRENT_ELEMENT_ID);
  const seconds = element instanceof HTMLMediaElement ? element.currentTime : state.position;
  return seconds * 1000;
}

/** Whether file `fileId` is the current track and playing. */
export function usePlayingFile(fileId: number): boolean {
  return usePlayer((s) => s.queue.playing && currentTrack(s)?.id === fileId);
}

/**
 * Seeks file `fileId` to `seconds` as soon as it is the current track and its length is known
 * (right after `play` it is still loading). Returns a cancel.
 */
export function seekPlayerWhenReady(fileId: number, seconds: number): () => void {
  const ready = () => {
    const state = playerStore.getState();
    if (currentTrack(state)?.id !== fileId || state.duration <= 0) return false;
    playerControls.seek(seconds);
    return true;
  };
  if (ready()) return () => {};
  const stop = playerStore.subscribe(() => {
    if (ready()) stop();
  });
  return stop;
}

export function pausePlayer(): void {
  playerControls.pause();
}
