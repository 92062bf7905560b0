/**
 * Runs the shared queue reducer and brings the audio element in line with the new state:
 * a new start loads its track under a new listening session, an emptied queue unloads.
 */
import type { QueueAction } from '@mesmer/shared/domain/player-queue';
import { queueReducer } from '@mesmer/shared/domain/player-queue';
import type { AudioOutput } from './audio-element.ts';
import type { HapticsDriver } from './haptics.ts';
import type { ListeningTracker } from './listening-session.ts';
import { showMediaMetadata, showMediaPlaybackState } from './media-session.ts';
import type { PlayerQueue, PlayerStore } from './store.ts';
import type { PlayerPlan, PlayerTrack } from './types.ts';

export function createQueueFollower(deps: {
  store: PlayerStore;
  audio: AudioOutput;
  tracker: ListeningTracker;
  haptics: Pick<HapticsDriver, 'setTrack'>;
  /** Playback finished the last track of a plan's day by itself. */
  onDayFinished: (plan: PlayerPlan) => void;
  /** Loop mode, loop count or shuffle changed. */
  onPreferencesChanged: () => void;
  /** The queue changed (to be saved). */
  onQueueChanged: () => void;
}) {
  const { store, audio, tracker, haptics } = deps;

  /** Loads `track` at `position` seconds and shows it in the bar and the device's media controls. */
  function loadTrack(track: PlayerTrack, position: number, play: boolean) {
    audio.load(track, position, play);
    store.setState({ position, duration: track.duration / 1000 });
    const { playlist, queue } = store.getState();
    showMediaMetadata({
      name: track.name,
      author: track.author.username,
      album: queue.plan?.name ?? playlist?.name ?? '',
    });
    void haptics.setTrack(track.hapticsURL);
  }

  function unload() {
    void tracker.finish();
    audio.unload();
    void haptics.setTrack(null);
    showMediaMetadata(null);
    showMediaPlaybackState('none');
    store.setState({ position: 0, duration: 0, playlist: null });
  }

  function follow(before: PlayerQueue, after: PlayerQueue) {
    if (after.index === -1) {
      if (before.index !== -1) unload();
    } else if (after.starts !== before.starts) {
      // Leaving a track (skip, loop, next queue) ends its session with what was really listened.
      void tracker.finish();
      loadTrack(after.tracks[after.index], 0, after.playing);
    } else if (after.playing && audio.element().paused) {
      audio.start();
    } else if (!after.playing && !audio.element().paused) {
      audio.element().pause();
    }
    if (after.passesFinished > before.passesFinished && after.plan) deps.onDayFinished(after.plan);
    if (
      after.loopMode !== before.loopMode ||
      after.loopCount !== before.loopCount ||
      after.shuffle !== before.shuffle
    ) {
      deps.onPreferencesChanged();
    }
    deps.onQueueChanged();
  }

  return {
    loadTrack,
    dispatch(action: QueueAction<PlayerTrack, PlayerPlan>) {
      const before = store.getState().queue;
      const after = queueReducer(before, action);
      if (after === before) return;
      store.setState({ queue: after });
      follow(before, after);
    },
  };
}
export type QueueFollower = ReturnType<typeof createQueueFollower>;
