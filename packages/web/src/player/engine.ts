/**
 * The audio engine: one media element kept in step with the player store. Queue rules come
 * from the shared reducer; the parts here turn state changes into audio actions and audio
 * events into state changes: the element (audio-element.ts), the queue follower, plan progress,
 * track refresh, and listening sessions, media controls, haptics and saving for a reload.
 * Everything it talks to is passed in, so tests run it over a fake element and fake calls.
 */
import type { EndSessionResponse } from '@mesmer/shared/api/listening';
import type { HapticSettings } from '@mesmer/shared/domain/haptic-cues';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '@mesmer/shared/domain/haptics-settings';
import type { LoopMode } from '@mesmer/shared/domain/player-queue';
import { createAudioOutput, type MediaElement, type MediaEventName } from './audio-element.ts';
import { createHapticsDriver, type HapticDevice, type HapticsDriver } from './haptics.ts';
import { createListeningTracker, type SessionCalls, sessionCalls } from './listening-session.ts';
import { bindMediaSession, showMediaPlaybackState, showMediaPosition } from './media-session.ts';
import { clampSpeed, clampVolume, savePreferences, saveQueue } from './persistence.ts';
import { createPlanProgress } from './plan-progress.ts';
import { createQueueFollower } from './queue-follower.ts';
import { currentTrack, type PlayerStore } from './store.ts';
import { createTrackRefresh } from './track-refresh.ts';
import type { Notify, PlayerPlan, PlayerPlaylist, PlayerServices, PlayerTrack } from './types.ts';

/** How often the playhead is written to localStorage while playing. */
export const SAVE_POSITION_EVERY_MS = 5000;

export interface PlayerLoadRequest {
  files: PlayerTrack[];
  startIndex: number;
  playlist?: PlayerPlaylist;
  plan?: PlayerPlan;
}

export interface PlayerEngineDeps {
  store: PlayerStore;
  /** Called once, when the engine first needs its element. */
  createElement: () => MediaElement;
  sessions?: SessionCalls;
  /** Haptic cue files; the driver's own fetch when left out. */
  fetchHapticCues?: Parameters<typeof createHapticsDriver>[0]['fetchCues'];
  now: () => number;
  /** In [0, 1): picks shuffled tracks. */
  random: () => number;
  notify: Notify;
}

/** Until the app attaches its services: a visitor, and no file can be fetched again. */
const detachedServices: PlayerServices = {
  currentUser: () => null,
  pointsEarned: () => undefined,
  fetchFile: () => Promise.reject(new Error('The player is not attached.')),
  planPosition: () => Promise.reject(new Error('The player is not attached.')),
  savePlanPosition: () => Promise.reject(new Error('The player is not attached.')),
};

export function createPlayerEngine(deps: PlayerEngineDeps) {
  const { store, notify } = deps;
  let services = detachedServices;
  let lastSaved = 0;

  let element: MediaElement | null = null;
  function mediaElement(): MediaElement {
    if (!element) {
      element = deps.createElement();
      const { volume, speed } = store.getState();
      element.volume = volume / 100;
      element.defaultPlaybackRate = element.playbackRate = speed / 100;
    }
    return element;
  }

  const tracker = createListeningTracker((result: EndSessionResponse) => {
    if (result.points > 0) services.pointsEarned(result);
  }, deps.sessions ?? sessionCalls);

  function hapticSettings(): HapticSettings {
    const settings = services.currentUser()?.lovenseSettings;
    return {
      offsetMs: settings?.vibrationOffset ?? VIBRATION_OFFSET_RANGE.default,
      maxVibration: settings?.maxVibration ?? MAX_VIBRATION_RANGE.default,
    };
  }

  const haptics: HapticsDriver = createHapticsDriver({
    currentTimeMs: () => mediaElement().currentTime * 1000,
    settings: hapticSettings,
    fetchCues: deps.fetchHapticCues,
  });

  function savePlayerPreferences() {
    const { volume, speed, queue } = store.getState();
    savePreferences({
      volume,
      speed,
      loopMode: queue.loopMode,
      loopCount: queue.loopCount,
      shuffle: queue.shuffle,
    });
  }

  /** Writes the queue and playhead; throttled unless `now`. */
  function persistQueue(now = false) {
    const time = deps.now();
    if (!now && time - lastSaved < SAVE_POSITION_EVERY_MS) return;
    lastSaved = time;
    const { queue, position, playlist } = store.getState();
    if (queue.index === -1) return saveQueue(null);
    saveQueue({
      tracks: queue.tracks,
      index: queue.index,
      position,
      currentLoop: queue.currentLoop,
      history: queue.history,
      playlist,
      plan: queue.plan,
    });
  }

  const audio = createAudioOutput(mediaElement, {
    tracker,
    speed: () => store.getState().speed,
    onBlocked: () => queue.dispatch({ type: 'pause' }),
  });
  const planProgress = createPlanProgress({ store, services: () => services, notify });
  const queue = createQueueFollower({
    store,
    audio,
    tracker,
    haptics,
    onDayFinished: (plan) => void planProgress.dayFinished(plan),
    onPreferencesChanged: savePlayerPreferences,
    onQueueChanged: () => persistQueue(true),
  });
  const refresh = createTrackRefresh({
    store,
    audio,
    queue,
    services: () => services,
    now: deps.now,
    notify,
  });
  const { dispatch } = queue;

  function seek(seconds: number) {
    const a = audio.element();
    const { duration } = store.getState();
    const max = Number.isFinite(a.duration) && a.duration > 0 ? a.duration : duration;
    const to = Math.max(0, Math.min(seconds, max || 0));
    audio.seek(to);
    haptics.seeked();
    store.setState({ position: to });
    persistQueue(true);
  }

  /** What the player bar and the library screens call. */
  const controls = {
    play({ files, startIndex, playlist, plan }: PlayerLoadRequest) {
      // Only what the bar shows is kept (callers may pass whole playlist objects).
      store.setState({
        playlist: playlist ? { id: playlist.id, uuid: playlist.uuid, name: playlist.name } : null,
        restoreAt: null,
      });
      const queuePlan = plan && {
        id: plan.id,
        uuid: plan.uuid,
        name: plan.name,
        dayIndex: plan.dayIndex,
        dayCount: plan.dayCount,
        position: plan.position,
      };
      dispatch({ type: 'load', tracks: files, startIndex, plan: queuePlan ?? null });
      if (store.getState().queue.index === -1) {
        notify('info', 'Nothing to play', 'Every track here is locked or disabled.');
      }
    },
    togglePlay() {
      dispatch({ type: store.getState().queue.playing ? 'pause' : 'play' });
    },
    resume: () => dispatch({ type: 'play' }),
    pause: () => dispatch({ type: 'pause' }),
    next: () => dispatch({ type: 'next', random: deps.random() }),
    previous: () => dispatch({ type: 'previous' }),
    seek,
    seekBy: (seconds: number) => seek(audio.element().currentTime + seconds),
    setVolume(volume: number) {
      const v = clampVolume(volume);
      audio.element().volume = v / 100;
      store.setState({ volume: v });
      savePlayerPreferences();
    },
    setSpeed(speed: number) {
      const s = clampSpeed(speed);
      audio.element().defaultPlaybackRate = audio.element().playbackRate = s / 100;
      store.setState({ speed: s });
      savePlayerPreferences();
    },
    setLoopMode: (loopMode: LoopMode) => dispatch({ type: 'setLoopMode', loopMode }),
    setLoopCount: (loopCount: number | null) => dispatch({ type: 'setLoopCount', loopCount }),
    setShuffle: (shuffle: boolean) => dispatch({ type: 'setShuffle', shuffle }),
    setHapticDevice: (device: HapticDevice | null) => haptics.setDevice(device),
  };

  /**
   * Connects the engine to the page with the app's services: audio events, media session,
   * page-hide handling and the restore after a reload. Returns the disconnect.
   */
  function attach(appServices: PlayerServices): () => void {
    services = appServices;
    const a = audio.element();
    const listeners: [MediaEventName, () => void][] = [
      [
        'playing',
        () => {
          const track = currentTrack(store.getState());
          if (!track) return;
          // Played again after its session ended (Play after the queue finished): load it under a new one.
          if (!tracker.isOpen()) queue.loadTrack(track, a.currentTime, true);
          haptics.play();
          showMediaPlaybackState('playing');
          if (!store.getState().queue.playing) dispatch({ type: 'play' });
        },
      ],
      [
        'pause',
        () => {
          haptics.pause();
          showMediaPlaybackState('paused');
          persistQueue(true);
          // Paused from outside (device keys, another app): show it. The end of a track is handled by 'ended'.
          if (a.paused && !a.ended && store.getState().queue.playing) dispatch({ type: 'pause' });
        },
      ],
      [
        'ended',
        () => {
          void tracker.finish();
          dispatch({ type: 'ended', random: deps.random() });
        },
      ],
      ['loadedmetadata', () => audio.metadataLoaded()],
      [
        'durationchange',
        () => {
          if (Number.isFinite(a.duration) && a.duration > 0) store.setState({ duration: a.duration });
        },
      ],
      [
        'timeupdate',
        () => {
          if (audio.isSeekPending()) return;
          if (!a.paused) tracker.progress(a.currentTime);
          store.setState({ position: a.currentTime });
          showMediaPosition(a.duration, a.playbackRate, a.currentTime);
          persistQueue();
        },
      ],
      [
        'seeking',
        () => {
          tracker.jumped();
          haptics.seeked();
        },
      ],
      ['error', () => void refresh.mediaError()],
    ];
    for (const [event, handler] of listeners) a.addEventListener(event, handler);

    const unbindMediaSession = bindMediaSession({
      play: controls.resume,
      pause: controls.pause,
      previous: controls.previous,
      next: controls.next,
      seekBy: controls.seekBy,
      seekTo: seek,
    });
    const onPageHide = () => {
      persistQueue(true);
      tracker.finishOnUnload();
    };
    window.addEventListener('pagehide', onPageHide);
    void refresh.restore();

    return () => {
      for (const [event, handler] of listeners) a.removeEventListener(event, handler);
      unbindMediaSession();
      window.removeEventListener('pagehide', onPageHide);
      services = detachedServices;
    };
  }

  return { controls, attach };
}
