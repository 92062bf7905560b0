/**
 * The audio engine: the media elements kept in step with the player store. Queue rules come
 * from the shared reducer; the parts here turn state changes into audio actions and audio
 * events into state changes: the elements (audio-element.ts: the current track's and the next
 * one's, preloading for gapless playback, gapless.ts), the queue follower, plan progress,
 * track refresh, and listening sessions, media controls, haptics and saving for a reload.
 * Everything it talks to is passed in, so tests run it over a fake element and fake calls.
 */
import type { EndSessionResponse } from '@mesmer/shared/api/listening';
import type { HapticSettings } from '@mesmer/shared/domain/haptic-cues';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '@mesmer/shared/domain/haptics-settings';
import type { OnlinePlaySource } from '@mesmer/shared/domain/insights';
import { gainToDb, normalisationGain } from '@mesmer/shared/domain/loudness';
import type { LoopMode } from '@mesmer/shared/domain/player-queue';
import { createAudioOutput, type MediaElement, type MediaEventName } from './audio-element.ts';
import { createGapless, sessionHandover } from './gapless.ts';
import { createHapticsDriver, type HapticDevice, type HapticsDriver } from './haptics.ts';
import { type LibraryCalls, libraryCalls } from './library-calls.ts';
import { createListeningTracker, type SessionCalls, sessionCalls } from './listening-session.ts';
import { bindMediaSession, showMediaPlaybackState, showMediaPosition } from './media-session.ts';
import { type CreateGainStage, createOutputLevel } from './output-level.ts';
import { clampSpeed, clampVolume, savePreferences, saveQueue, VOLUME_RANGE } from './persistence.ts';
import { createPlanProgress } from './plan-progress.ts';
import { createQueueFollower } from './queue-follower.ts';
import { createSleepTimer, type SleepChoice } from './sleep-timer.ts';
import { currentTrack, type PlayerStore } from './store.ts';
import { createTrackRefresh } from './track-refresh.ts';
import type { Notify, PlayerPlan, PlayerPlaylist, PlayerServices, PlayerTrack } from './types.ts';

/** How often the playhead is written to localStorage while playing. */
export const SAVE_POSITION_EVERY_MS = 5000;
/** The wake-up button fades the track out over this long before the awakener. */
export const WAKE_FADE_MS = 3000;
const WAKE_TICK_MS = 100;

export interface PlayerLoadRequest {
  files: PlayerTrack[];
  startIndex: number;
  playlist?: PlayerPlaylist;
  plan?: PlayerPlan;
  /** Where the queue comes from (insights); a plan's queue is 'training-plan' unless said. */
  source?: OnlinePlaySource;
}

export interface PlayerEngineDeps {
  store: PlayerStore;
  /** Called twice (the current track's element and the next one's), when the engine first needs them. */
  createElement: () => MediaElement;
  sessions?: SessionCalls;
  /** Haptic cue files; the driver's own fetch when left out. */
  fetchHapticCues?: Parameters<typeof createHapticsDriver>[0]['fetchCues'];
  /**
   * An element's gain stage for loudness normalisation (Web Audio), made when it first plays
   * (or preloads while the other one plays); null when there is none (the element's volume then
   * carries the gain, up to 1), undefined to try again at the next start. None when left out.
   */
  createGainStage?: CreateGainStage;
  /** Loudness and awakener look-ups; the server's when left out. */
  library?: LibraryCalls;
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

  const library = deps.library ?? libraryCalls;

  const output = createOutputLevel({
    createStage: deps.createGainStage,
    volume: () => store.getState().volume,
  });
  function createElement(): MediaElement {
    const element = deps.createElement();
    const { speed } = store.getState();
    element.defaultPlaybackRate = element.playbackRate = speed / 100;
    output.add(element);
    return element;
  }

  const serverSessions = deps.sessions ?? sessionCalls;
  // Every session says where its queue came from and, at its end, whether a toy is connected.
  const sessions: SessionCalls = {
    start: () => serverSessions.start(store.getState().source ?? undefined),
    end: (body) => serverSessions.end({ ...body, toyConnected: haptics.connected() }),
    endOnUnload: (body) => serverSessions.endOnUnload({ ...body, toyConnected: haptics.connected() }),
  };
  const handover = sessionHandover(sessions);
  const tracker = createListeningTracker((result: EndSessionResponse) => {
    if (result.points > 0) services.pointsEarned(result);
  }, handover.calls);

  function hapticSettings(): HapticSettings {
    const settings = services.currentUser()?.lovenseSettings;
    return {
      offsetMs: settings?.vibrationOffset ?? VIBRATION_OFFSET_RANGE.default,
      maxVibration: settings?.maxVibration ?? MAX_VIBRATION_RANGE.default,
    };
  }

  const haptics: HapticsDriver = createHapticsDriver({
    currentTimeMs: () => audio.element().currentTime * 1000,
    settings: hapticSettings,
    fetchCues: deps.fetchHapticCues,
  });

  function savePlayerPreferences() {
    const { volume, speed, normalise, queue } = store.getState();
    savePreferences({
      volume,
      speed,
      normalise,
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

  const audio = createAudioOutput(createElement, {
    tracker,
    speed: () => store.getState().speed,
    onBlocked: () => queue.dispatch({ type: 'pause' }),
    onLoaded(element, track, position) {
      // The next track's element is routed like the playing one before it starts.
      if (element !== audio.element()) output.prepare(element, audio.element());
      heldTracks.set(element, track);
      playsFrom.set(element, position);
      applyGain(element);
    },
    onSwitched(element) {
      if (Number.isFinite(element.duration) && element.duration > 0) {
        store.setState({ duration: element.duration });
      }
    },
    onMade: (elements) => whenElementsMade(elements),
  });
  /** Set by attach: binds the events of elements made while attached. */
  let whenElementsMade: (elements: readonly MediaElement[]) => void = () => undefined;
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

  /** Loudness-normalisation gains by file id (the look-up once per file). */
  const gains = new Map<number, Promise<number>>();
  /** The track each element holds (the current one, or the next one preloading). */
  const heldTracks = new Map<MediaElement, PlayerTrack>();
  /** The file whose gain each element has or is getting (null: none, normalisation off). */
  const gainFiles = new Map<MediaElement, number | null>();
  /** The file whose gain the bar shows. */
  let shownGainFileId: number | null = null;
  /**
   * Where an element's new track starts playing (seconds): its listening is counted from there,
   * as 'playing' comes only once the audio already runs.
   */
  const playsFrom = new Map<MediaElement, number>();

  function trackGain(fileId: number): Promise<number> {
    let gain = gains.get(fileId);
    if (!gain) {
      gain = library
        .loudness(fileId)
        .then(({ loudness, peak }) => normalisationGain(loudness, peak))
        .catch(() => {
          gains.delete(fileId);
          return 1;
        });
      gains.set(fileId, gain);
    }
    return gain;
  }

  /** Gives `element` the normalisation gain of the track it holds (1 when switched off). */
  function applyGain(element: MediaElement) {
    const track = heldTracks.get(element);
    const fileId = store.getState().normalise && track ? track.id : null;
    if (gainFiles.get(element) === fileId) return;
    gainFiles.set(element, fileId);
    if (fileId === null) return output.setGain(element, 1);
    void trackGain(fileId).then((gain) => {
      if (gainFiles.get(element) === fileId) output.setGain(element, gain);
    });
  }

  /** Brings the gain the bar shows in line with the current track and the switch. */
  function updateShownGain() {
    const state = store.getState();
    const track = currentTrack(state);
    const fileId = state.normalise && track ? track.id : null;
    if (fileId === shownGainFileId) return;
    shownGainFileId = fileId;
    if (fileId === null) {
      if (state.gainDb !== null) store.setState({ gainDb: null });
      return;
    }
    void trackGain(fileId).then((gain) => {
      if (shownGainFileId === fileId) store.setState({ gainDb: Math.round(gainToDb(gain) * 10) / 10 });
    });
  }

  /** The current track is the last to play: its end stops playback instead of moving on. */
  let stopAtEndOf: number | null = null;

  const gapless = createGapless({
    audio,
    sessions,
    handover,
    queue: () => store.getState().queue,
    stopsAtEnd: () =>
      stopAtEndOf === store.getState().queue.starts || store.getState().sleepTimer?.kind === 'track',
    random: deps.random,
  });

  store.subscribe((state, before) => {
    if (state.normalise !== before.normalise) for (const element of heldTracks.keys()) applyGain(element);
    if (state.queue !== before.queue) gapless.queueChanged();
    updateShownGain();
  });
  updateShownGain();

  const sleepTimer = createSleepTimer({
    now: deps.now,
    trackLeftMs: () => {
      const a = audio.element();
      if (!Number.isFinite(a.duration) || a.duration <= 0) return null;
      return (Math.max(0, a.duration - a.currentTime) / (a.playbackRate || 1)) * 1000;
    },
    setFade: output.setFade,
    sleep: () => dispatch({ type: 'pause' }),
    changed: (sleepTimer) => store.setState({ sleepTimer }),
  });

  /**
   * The wake-up button (listener safety): the toy stops at once, the track fades out over
   * WAKE_FADE_MS and pauses, then a short awakener from the library plays once.
   */
  async function wakeUp() {
    if (store.getState().waking) return;
    haptics.silence();
    sleepTimer.set(null);
    store.setState({ waking: true });
    const awakener = library.awakener().catch(() => null);
    if (store.getState().queue.playing) {
      const from = deps.now();
      await new Promise<void>((resolve) => {
        const fade = setInterval(() => {
          const level = 1 - (deps.now() - from) / WAKE_FADE_MS;
          output.setFade(Math.max(0, level));
          if (level > 0) return;
          clearInterval(fade);
          resolve();
        }, WAKE_TICK_MS);
      });
    }
    dispatch({ type: 'pause' });
    output.setFade(1);
    const starts = store.getState().queue.starts;
    const track = await awakener;
    store.setState({ waking: false });
    // The listener chose something else meanwhile: leave it.
    if (store.getState().queue.starts !== starts) return;
    if (!track) {
      notify('info', 'Wake up gently…', 'Take a moment, breathe, and open your eyes when you are ready.');
      return;
    }
    store.setState({ playlist: null, restoreAt: null });
    dispatch({ type: 'load', tracks: [track], startIndex: 0, plan: null });
    stopAtEndOf = store.getState().queue.starts;
  }

  function setVolume(volume: number) {
    const v = clampVolume(volume);
    store.setState({ volume: v });
    output.apply();
    savePlayerPreferences();
  }
  /** The volume before muting, for unmuting. */
  let unmutedVolume: number = VOLUME_RANGE.default;

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
    play({ files, startIndex, playlist, plan, source }: PlayerLoadRequest) {
      haptics.release();
      // Only what the bar shows is kept (callers may pass whole playlist objects).
      store.setState({
        playlist: playlist ? { id: playlist.id, uuid: playlist.uuid, name: playlist.name } : null,
        source: source ?? (plan ? 'training-plan' : null),
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
    // The listener's Play and Pause also decide a load still waiting for its session token.
    togglePlay() {
      const playing = store.getState().queue.playing;
      if (!playing) haptics.release();
      audio.wantPlaying(!playing);
      dispatch({ type: playing ? 'pause' : 'play' });
    },
    resume() {
      haptics.release();
      audio.wantPlaying(true);
      dispatch({ type: 'play' });
    },
    pause() {
      audio.wantPlaying(false);
      dispatch({ type: 'pause' });
    },
    next: () => dispatch({ type: 'next', random: deps.random() }),
    previous: () => dispatch({ type: 'previous' }),
    seek,
    seekBy: (seconds: number) => seek(audio.element().currentTime + seconds),
    setVolume,
    /** Mutes, or goes back to the volume before muting. */
    toggleMute() {
      const { volume } = store.getState();
      if (volume > 0) {
        unmutedVolume = volume;
        setVolume(0);
      } else {
        setVolume(unmutedVolume || VOLUME_RANGE.default);
      }
    },
    /** Loudness normalisation on or off (kept with the preferences). */
    setNormalise(normalise: boolean) {
      store.setState({ normalise });
      savePlayerPreferences();
    },
    /** Sets the sleep timer (minutes, or the end of the track), or cancels it with null. */
    setSleepTimer: (choice: SleepChoice | null) => sleepTimer.set(choice),
    wakeUp: () => void wakeUp(),
    setSpeed(speed: number) {
      const s = clampSpeed(speed);
      for (const a of audio.made()) a.defaultPlaybackRate = a.playbackRate = s / 100;
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
    /** What the current track's element reports; the spare element's events are its own (below). */
    const listeners: [MediaEventName, (a: MediaElement) => void][] = [
      [
        'playing',
        (a) => {
          const track = currentTrack(store.getState());
          if (!track) return;
          // Played again after its session ended (Play after the queue finished): load it under a new one.
          if (!tracker.isOpen()) queue.loadTrack(track, a.currentTime, true);
          // Listening is counted from where it started (timeupdate comes only every quarter second).
          tracker.progress(playsFrom.get(a) ?? a.currentTime);
          playsFrom.delete(a);
          output.starting(a);
          haptics.play();
          showMediaPlaybackState('playing');
          if (!store.getState().queue.playing) dispatch({ type: 'play' });
        },
      ],
      [
        'pause',
        (a) => {
          haptics.pause();
          showMediaPlaybackState('paused');
          persistQueue(true);
          // Paused from outside (device keys, another app): show it. The end of a track is handled by 'ended'.
          if (a.paused && !a.ended && store.getState().queue.playing) dispatch({ type: 'pause' });
        },
      ],
      [
        'ended',
        (a) => {
          // The stretch since the last timeupdate was heard too.
          tracker.progress(a.currentTime);
          void tracker.finish();
          const lastOne = stopAtEndOf === store.getState().queue.starts;
          stopAtEndOf = null;
          // The sleep timer or the awakener stop here: the next track is loaded paused.
          const stop = sleepTimer.trackEnded() || lastOne;
          if (stop) dispatch({ type: 'pause' });
          gapless.ended((random) => dispatch({ type: 'ended', random }));
          if (stop) sleepTimer.resetFade();
        },
      ],
      ['loadedmetadata', () => audio.metadataLoaded()],
      [
        'durationchange',
        (a) => {
          if (Number.isFinite(a.duration) && a.duration > 0) store.setState({ duration: a.duration });
        },
      ],
      [
        'timeupdate',
        (a) => {
          if (audio.isSeekPending()) return;
          if (!a.paused) tracker.progress(a.currentTime);
          store.setState({ position: a.currentTime });
          sleepTimer.update();
          showMediaPosition(a.duration, a.playbackRate, a.currentTime);
          persistQueue();
          gapless.check();
        },
      ],
      [
        'seeking',
        (a) => {
          tracker.jumped();
          playsFrom.delete(a);
          haptics.seeked();
        },
      ],
      ['error', () => void refresh.mediaError()],
    ];
    const bound: [MediaElement, MediaEventName, () => void][] = [];
    const bind = (elements: readonly MediaElement[]) => {
      for (const a of elements) {
        const handlers: [MediaEventName, () => void][] = listeners.map(([event, handler]) => [
          event,
          () => (a === audio.element() ? handler(a) : undefined),
        ]);
        // The next track could not be preloaded (e.g. its signed URL expired): it loads when it starts.
        handlers.push(['error', () => (a === audio.element() ? undefined : gapless.preloadFailed())]);
        for (const [event, handler] of handlers) {
          a.addEventListener(event, handler);
          bound.push([a, event, handler]);
        }
      }
    };
    // The elements are made when something is first loaded, not at page start (work a first load saves).
    bind(audio.made());
    whenElementsMade = bind;

    const unbindMediaSession = bindMediaSession({
      play: controls.resume,
      pause: controls.pause,
      previous: controls.previous,
      next: controls.next,
      seekBy: controls.seekBy,
      seekTo: seek,
      stop() {
        controls.pause();
        seek(0);
      },
    });
    const onPageHide = () => {
      persistQueue(true);
      tracker.finishOnUnload();
    };
    window.addEventListener('pagehide', onPageHide);
    void refresh.restore();

    return () => {
      whenElementsMade = () => undefined;
      for (const [a, event, handler] of bound) a.removeEventListener(event, handler);
      unbindMediaSession();
      window.removeEventListener('pagehide', onPageHide);
      services = detachedServices;
    };
  }

  return { controls, attach };
}
