/**
 * The audio element and what the player does with it directly: each track's URL set under its
 * listening session, a seek waiting for the audio's metadata, play refused by autoplay rules.
 */
import { type ListeningTracker, withSession } from './listening-session.ts';
import type { PlayerTrack } from './types.ts';

export type MediaEventName =
  | 'playing'
  | 'pause'
  | 'ended'
  | 'loadedmetadata'
  | 'durationchange'
  | 'timeupdate'
  | 'seeking'
  | 'error';

/** What the player uses of an HTMLAudioElement, so tests can pass a fake. */
export interface MediaElement {
  src: string;
  currentTime: number;
  readonly duration: number;
  readonly paused: boolean;
  readonly ended: boolean;
  volume: number;
  playbackRate: number;
  defaultPlaybackRate: number;
  play(): Promise<void>;
  pause(): void;
  load(): void;
  removeAttribute(name: 'src'): void;
  addEventListener(type: MediaEventName, listener: () => void): void;
  removeEventListener(type: MediaEventName, listener: () => void): void;
}

/** The page's one hidden audio element. */
export function createAudioElement(): MediaElement {
  const audio = document.createElement('audio');
  audio.id = 'mesmer-audio';
  audio.preload = 'auto';
  audio.hidden = true;
  document.body.append(audio);
  return audio;
}

export function createAudioOutput(
  /** The element, created when first needed. */
  element: () => MediaElement,
  opts: {
    tracker: ListeningTracker;
    /** Percent. */
    speed: () => number;
    /** The browser refused to start playing (autoplay rules). */
    onBlocked: () => void;
  },
) {
  /** The URL the element holds. */
  let loadedUrl: string | null = null;
  /** Counts loads, so a load that waited for its session token knows when a newer one took over. */
  let loads = 0;
  /** Where to jump once the audio's metadata is in (seconds). */
  let pendingSeek: number | null = null;

  function start() {
    element()
      .play()
      .catch((err: unknown) => {
        // Blocked by the browser's autoplay rules: show it as paused. (AbortError: a newer load took over.)
        if (err instanceof DOMException && err.name === 'NotAllowedError') opts.onBlocked();
      });
  }

  return {
    element,
    start,

    /**
     * Puts `track` in the element at `position` seconds (the same URL just rewinds), under its
     * listening session, and starts it when `play`. The URL is set once the session token is
     * in; a newer load in the meantime wins.
     */
    load(track: PlayerTrack, position: number, play: boolean) {
      const load = ++loads;
      void opts.tracker.open(track.id).then((sessionToken) => {
        if (load !== loads) return;
        const url = track.audioURL ? withSession(track.audioURL, sessionToken) : '';
        if (url !== loadedUrl) {
          loadedUrl = url;
          pendingSeek = position > 0 ? position : null;
          const a = element();
          a.src = url;
          a.defaultPlaybackRate = a.playbackRate = opts.speed() / 100;
        } else {
          element().currentTime = position;
        }
        if (play) start();
      });
    },

    /** The next load sets the URL even when it is the same one (after a media error). */
    forgetUrl() {
      loadedUrl = null;
    },

    unload() {
      loads++;
      const a = element();
      a.pause();
      a.removeAttribute('src');
      a.load();
      loadedUrl = null;
      pendingSeek = null;
    },

    /** Moves the playhead, or where it goes once the metadata is in. */
    seek(to: number) {
      if (pendingSeek !== null) pendingSeek = to;
      else element().currentTime = to;
    },

    /** The 'loadedmetadata' event: the waiting seek can happen now. */
    metadataLoaded() {
      if (pendingSeek !== null) element().currentTime = pendingSeek;
      pendingSeek = null;
    },

    isSeekPending: () => pendingSeek !== null,
  };
}
export type AudioOutput = ReturnType<typeof createAudioOutput>;
