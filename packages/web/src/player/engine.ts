/**
 * The audio engine: one HTMLAudioElement kept in step with the player store. Queue rules
 * come from the shared reducer; this file turns state changes into audio actions and audio
 * events into state changes, and looks after listening sessions, the device's media
 * controls, haptics, signed-URL refreshes, training-plan progress and resuming after a reload.
 */
import type { EndSessionResponse } from '@mesmer/shared/api/listening';
import type { SelfUser } from '@mesmer/shared/api/users';
import type { HapticSettings } from '@mesmer/shared/domain/haptic-cues';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '@mesmer/shared/domain/haptics-settings';
import {
  isPlayable,
  type LoopMode,
  planPositionAfterDay,
  type QueueAction,
  queueReducer,
} from '@mesmer/shared/domain/player-queue';
import type { QueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../features/auth/api.ts';
import { toast } from '../ui/index.ts';
import { fetchFile, fetchPlanPosition, savePlanPosition } from './api.ts';
import { createHapticsDriver, type HapticDevice } from './haptics.ts';
import { createListeningTracker, withSession } from './listening-session.ts';
import {
  bindMediaSession,
  showMediaMetadata,
  showMediaPlaybackState,
  showMediaPosition,
} from './media-session.ts';
import { clampSpeed, clampVolume, savePreferences, saveQueue } from './persistence.ts';
import { currentTrack, type PlayerQueue, playerStore } from './store.ts';
import type { PlayerPlan, PlayerPlaylist, PlayerTrack } from './types.ts';

/** How often the playhead is written to localStorage while playing. */
const SAVE_POSITION_EVERY_MS = 5000;
/** A second media error within this time after a URL refresh gives the track up. */
const REFRESH_RETRY_MS = 10_000;

export interface PlayerLoadRequest {
  files: PlayerTrack[];
  startIndex: number;
  playlist?: PlayerPlaylist;
  plan?: PlayerPlan;
}

let audio: HTMLAudioElement | null = null;
let queryClient: QueryClient | null = null;
/** The URL the audio element holds. */
let loadedUrl: string | null = null;
/** Counts loadTrack calls, so a load that waited for its session token knows when a newer one took over. */
let loads = 0;
/** Where to jump once the audio's metadata is in (seconds). */
let pendingSeek: number | null = null;
let lastRefresh: { uuid: string; at: number } | null = null;
let lastSaved = 0;

function element(): HTMLAudioElement {
  if (!audio) {
    audio = document.createElement('audio');
    audio.id = 'mesmer-audio';
    audio.preload = 'auto';
    audio.hidden = true;
    document.body.append(audio);
    const { volume, speed } = playerStore.getState();
    audio.volume = volume / 100;
    audio.defaultPlaybackRate = audio.playbackRate = speed / 100;
  }
  return audio;
}

function signedInUser(): SelfUser | null {
  return queryClient?.getQueryData(currentUserQuery.queryKey) ?? null;
}

const tracker = createListeningTracker((result: EndSessionResponse) => {
  if (result.points <= 0 || !queryClient) return;
  queryClient.setQueryData(currentUserQuery.queryKey, (user) =>
    user ? { ...user, points: result.totalPoints, streak: result.streak } : user,
  );
  void queryClient.invalidateQueries({ queryKey: ['leaderboard'] });
});

function hapticSettings(): HapticSettings {
  const settings = signedInUser()?.lovenseSettings;
  return {
    offsetMs: settings?.vibrationOffset ?? VIBRATION_OFFSET_RANGE.default,
    maxVibration: settings?.maxVibration ?? MAX_VIBRATION_RANGE.default,
  };
}

const haptics = createHapticsDriver({
  currentTimeMs: () => element().currentTime * 1000,
  settings: hapticSettings,
});

function savePlayerPreferences() {
  const { volume, speed, queue } = playerStore.getState();
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
  const time = Date.now();
  if (!now && time - lastSaved < SAVE_POSITION_EVERY_MS) return;
  lastSaved = time;
  const { queue, position, playlist } = playerStore.getState();
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

function startPlayback() {
  element()
    .play()
    .catch((err: unknown) => {
      // Blocked by the browser's autoplay rules: show it as paused. (AbortError: a newer load took over.)
      if (err instanceof DOMException && err.name === 'NotAllowedError') dispatch({ type: 'pause' });
    });
}

/**
 * Puts `track` in the audio element at `position` seconds (the same URL just rewinds), under
 * its listening session, and starts it when `play`. The URL is set once the session token is
 * in; a newer load in the meantime wins.
 */
function loadTrack(track: PlayerTrack, position: number, play: boolean) {
  const a = element();
  const load = ++loads;
  void tracker.open(track.id).then((sessionToken) => {
    if (load !== loads) return;
    const url = track.audioURL ? withSession(track.audioURL, sessionToken) : '';
    if (url !== loadedUrl) {
      loadedUrl = url;
      pendingSeek = position > 0 ? position : null;
      a.src = url;
      a.defaultPlaybackRate = a.playbackRate = playerStore.getState().speed / 100;
    } else {
      a.currentTime = position;
    }
    if (play) startPlayback();
  });
  playerStore.setState({ position, duration: track.duration / 1000 });
  const { playlist, queue } = playerStore.getState();
  showMediaMetadata({
    name: track.name,
    author: track.author.username,
    album: queue.plan?.name ?? playlist?.name ?? '',
  });
  void haptics.setTrack(track.hapticsURL);
}

function unload() {
  void tracker.finish();
  loads++;
  const a = element();
  a.pause();
  a.removeAttribute('src');
  a.load();
  loadedUrl = null;
  pendingSeek = null;
  void haptics.setTrack(null);
  showMediaMetadata(null);
  showMediaPlaybackState('none');
  playerStore.setState({ position: 0, duration: 0, playlist: null });
}

/**
 * Finishing the plan's current day unlocks the next: saved on the server for signed-in
 * listeners, and kept in the player either way so an open plan page follows at once.
 */
async function completePlanDay(plan: PlayerPlan) {
  const unlock = (next: number) => {
    const positions = playerStore.getState().planPositions;
    playerStore.setState({ planPositions: { ...positions, [plan.id]: next } });
    toast(
      'success',
      'Day complete!',
      next > plan.dayCount ? `You finished ${plan.name}.` : 'The next day is unlocked.',
    );
  };
  if (signedInUser()) {
    try {
      const position = await fetchPlanPosition(plan.id);
      const next = planPositionAfterDay(position, plan.dayIndex, plan.dayCount);
      if (next === position) return;
      await savePlanPosition(plan.id, next);
      unlock(next);
      await queryClient?.invalidateQueries({ queryKey: ['series'] });
    } catch {
      // Progress stays where it was; the listener can play the day again.
    }
    return;
  }
  const position = playerStore.getState().planPositions[plan.id] ?? plan.position ?? 1;
  const next = planPositionAfterDay(position, plan.dayIndex, plan.dayCount);
  if (next !== position) unlock(next);
}

/** Runs the queue reducer and brings the audio element in line with the new state. */
function dispatch(action: QueueAction<PlayerTrack, PlayerPlan>) {
  const before = playerStore.getState().queue;
  const after = queueReducer(before, action);
  if (after === before) return;
  playerStore.setState({ queue: after });
  follow(before, after);
}

function follow(before: PlayerQueue, after: PlayerQueue) {
  const a = element();
  if (after.index === -1) {
    if (before.index !== -1) unload();
  } else if (after.starts !== before.starts) {
    // Leaving a track (skip, loop, next queue) ends its session with what was really listened.
    void tracker.finish();
    loadTrack(after.tracks[after.index], 0, after.playing);
  } else if (after.playing && a.paused) {
    startPlayback();
  } else if (!after.playing && !a.paused) {
    a.pause();
  }
  if (after.passesFinished > before.passesFinished && after.plan) void completePlanDay(after.plan);
  if (
    after.loopMode !== before.loopMode ||
    after.loopCount !== before.loopCount ||
    after.shuffle !== before.shuffle
  ) {
    savePlayerPreferences();
  }
  persistQueue(true);
}

/** The track failed to load: its signed URL may have expired, so fetch it again once. */
async function recoverFromMediaError() {
  const state = playerStore.getState();
  const track = currentTrack(state);
  if (!track) return;
  const { index, starts, playing } = state.queue;
  const position = element().currentTime || state.position;
  const giveUp = () => {
    toast('error', 'This track could not be played.');
    dispatch({ type: 'updateTrack', index, track: { ...track, audioURL: null } });
  };
  if (lastRefresh?.uuid === track.uuid && Date.now() - lastRefresh.at < REFRESH_RETRY_MS) return giveUp();
  lastRefresh = { uuid: track.uuid, at: Date.now() };
  let fresh: PlayerTrack | null;
  try {
    fresh = await fetchFile(track.uuid);
  } catch {
    return giveUp();
  }
  if (playerStore.getState().queue.starts !== starts) return;
  const updated: PlayerTrack = fresh
    ? { ...fresh, disabled: track.disabled }
    : { ...track, audioURL: null, isLocked: true };
  dispatch({ type: 'updateTrack', index, track: updated });
  if (!isPlayable(updated)) return;
  loadedUrl = null;
  loadTrack(updated, position, playing);
}

/** After a reload: load the saved track paused at the saved position, with a fresh URL. */
async function restoreQueue() {
  const state = playerStore.getState();
  const track = currentTrack(state);
  if (state.restoreAt === null || !track) return;
  const position = state.restoreAt;
  const { index, starts } = state.queue;
  playerStore.setState({ restoreAt: null });
  let fresh: PlayerTrack | null | undefined;
  try {
    fresh = await fetchFile(track.uuid);
  } catch {
    fresh = undefined;
  }
  if (playerStore.getState().queue.starts !== starts) return;
  if (fresh === undefined) return loadTrack(track, position, false);
  const updated: PlayerTrack = fresh
    ? { ...fresh, disabled: track.disabled }
    : { ...track, audioURL: null, isLocked: true };
  dispatch({ type: 'updateTrack', index, track: updated });
  if (isPlayable(updated)) loadTrack(updated, position, false);
}

function seek(seconds: number) {
  const a = element();
  const { duration } = playerStore.getState();
  const max = Number.isFinite(a.duration) && a.duration > 0 ? a.duration : duration;
  const to = Math.max(0, Math.min(seconds, max || 0));
  if (pendingSeek !== null) pendingSeek = to;
  else a.currentTime = to;
  haptics.seeked();
  playerStore.setState({ position: to });
  persistQueue(true);
}

/** What the player bar and the library screens call. */
export const playerControls = {
  play({ files, startIndex, playlist, plan }: PlayerLoadRequest) {
    // Only what the bar shows is kept (callers may pass whole playlist objects).
    playerStore.setState({
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
    if (playerStore.getState().queue.index === -1) {
      toast('info', 'Nothing to play', 'Every track here is locked or disabled.');
    }
  },
  togglePlay() {
    const { queue } = playerStore.getState();
    dispatch({ type: queue.playing ? 'pause' : 'play' });
  },
  resume: () => dispatch({ type: 'play' }),
  pause: () => dispatch({ type: 'pause' }),
  next: () => dispatch({ type: 'next', random: Math.random() }),
  previous: () => dispatch({ type: 'previous' }),
  seek,
  seekBy: (seconds: number) => seek(element().currentTime + seconds),
  setVolume(volume: number) {
    const v = clampVolume(volume);
    element().volume = v / 100;
    playerStore.setState({ volume: v });
    savePlayerPreferences();
  },
  setSpeed(speed: number) {
    const s = clampSpeed(speed);
    const a = element();
    a.defaultPlaybackRate = a.playbackRate = s / 100;
    playerStore.setState({ speed: s });
    savePlayerPreferences();
  },
  setLoopMode: (loopMode: LoopMode) => dispatch({ type: 'setLoopMode', loopMode }),
  setLoopCount: (loopCount: number | null) => dispatch({ type: 'setLoopCount', loopCount }),
  setShuffle: (shuffle: boolean) => dispatch({ type: 'setShuffle', shuffle }),
  setHapticDevice: (device: HapticDevice | null) => haptics.setDevice(device),
};

/**
 * Connects the engine to the page (the player bar calls it once): audio events, media
 * session, page-hide handling and the restore after a reload. Returns the disconnect.
 */
export function attachPlayer(client: QueryClient): () => void {
  queryClient = client;
  const a = element();
  const listeners: [keyof HTMLMediaElementEventMap, () => void][] = [
    [
      'playing',
      () => {
        const track = currentTrack(playerStore.getState());
        if (!track) return;
        // Played again after its session ended (Play after the queue finished): load it under a new one.
        if (!tracker.isOpen()) loadTrack(track, a.currentTime, true);
        haptics.play();
        showMediaPlaybackState('playing');
        if (!playerStore.getState().queue.playing) dispatch({ type: 'play' });
      },
    ],
    [
      'pause',
      () => {
        haptics.pause();
        showMediaPlaybackState('paused');
        persistQueue(true);
        // Paused from outside (device keys, another app): show it. The end of a track is handled by 'ended'.
        if (a.paused && !a.ended && playerStore.getState().queue.playing) dispatch({ type: 'pause' });
      },
    ],
    [
      'ended',
      () => {
        void tracker.finish();
        dispatch({ type: 'ended', random: Math.random() });
      },
    ],
    [
      'loadedmetadata',
      () => {
        if (pendingSeek !== null) a.currentTime = pendingSeek;
        pendingSeek = null;
      },
    ],
    [
      'durationchange',
      () => {
        if (Number.isFinite(a.duration) && a.duration > 0) playerStore.setState({ duration: a.duration });
      },
    ],
    [
      'timeupdate',
      () => {
        if (pendingSeek !== null) return;
        if (!a.paused) tracker.progress(a.currentTime);
        playerStore.setState({ position: a.currentTime });
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
    ['error', () => void recoverFromMediaError()],
  ];
  for (const [event, handler] of listeners) a.addEventListener(event, handler);

  const unbindMediaSession = bindMediaSession({
    play: playerControls.resume,
    pause: playerControls.pause,
    previous: playerControls.previous,
    next: playerControls.next,
    seekBy: playerControls.seekBy,
    seekTo: seek,
  });
  const onPageHide = () => {
    persistQueue(true);
    tracker.finishOnUnload();
  };
  window.addEventListener('pagehide', onPageHide);
  void restoreQueue();

  return () => {
    for (const [event, handler] of listeners) a.removeEventListener(event, handler);
    unbindMediaSession();
    window.removeEventListener('pagehide', onPageHide);
  };
}
