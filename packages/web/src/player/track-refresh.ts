/**
 * Fetching the current track again for a fresh signed audio URL (they expire): once after a
 * media error, and when a queue saved before a reload is restored.
 */
import { isPlayable } from '@mesmer/shared/domain/player-queue';
import type { AudioOutput } from './audio-element.ts';
import type { QueueFollower } from './queue-follower.ts';
import { currentTrack, type PlayerStore } from './store.ts';
import type { Notify, PlayerServices, PlayerTrack } from './types.ts';

/** A second media error within this time after a URL refresh gives the track up. */
export const REFRESH_RETRY_MS = 10_000;

export function createTrackRefresh(deps: {
  store: PlayerStore;
  audio: AudioOutput;
  queue: QueueFollower;
  services: () => PlayerServices;
  now: () => number;
  notify: Notify;
}) {
  const { store, audio, queue, notify } = deps;
  let lastRefresh: { uuid: string; at: number } | null = null;

  /** The fresh file, keeping the queue's own switch; a file gone or hidden is locked now. */
  const refreshed = (track: PlayerTrack, fresh: PlayerTrack | null): PlayerTrack =>
    fresh ? { ...fresh, disabled: track.disabled } : { ...track, audioURL: null, isLocked: true };

  return {
    /** The track failed to load: its signed URL may have expired, so fetch it again once. */
    async mediaError() {
      const state = store.getState();
      const track = currentTrack(state);
      if (!track) return;
      const { index, starts, playing } = state.queue;
      const position = audio.element().currentTime || state.position;
      const giveUp = () => {
        notify('error', 'This track could not be played.');
        queue.dispatch({ type: 'updateTrack', index, track: { ...track, audioURL: null } });
      };
      const now = deps.now();
      if (lastRefresh?.uuid === track.uuid && now - lastRefresh.at < REFRESH_RETRY_MS) return giveUp();
      lastRefresh = { uuid: track.uuid, at: now };
      let fresh: PlayerTrack | null;
      try {
        fresh = await deps.services().fetchFile(track.uuid);
      } catch {
        return giveUp();
      }
      if (store.getState().queue.starts !== starts) return;
      const updated = refreshed(track, fresh);
      queue.dispatch({ type: 'updateTrack', index, track: updated });
      if (!isPlayable(updated)) return;
      audio.forgetUrl();
      queue.loadTrack(updated, position, playing);
    },

    /** After a reload: load the saved track paused at the saved position, with a fresh URL. */
    async restore() {
      const state = store.getState();
      const track = currentTrack(state);
      if (state.restoreAt === null || !track) return;
      const position = state.restoreAt;
      const { index, starts } = state.queue;
      store.setState({ restoreAt: null });
      let fresh: PlayerTrack | null | undefined;
      try {
        fresh = await deps.services().fetchFile(track.uuid);
      } catch {
        fresh = undefined;
      }
      if (store.getState().queue.starts !== starts) return;
      if (fresh === undefined) return queue.loadTrack(track, position, false);
      const updated = refreshed(track, fresh);
      queue.dispatch({ type: 'updateTrack', index, track: updated });
      if (isPlayable(updated)) queue.loadTrack(updated, position, false);
    },
  };
}
