/**
 * The audio elements and what the player does with them directly: each track's URL set under
 * its listening session, a seek waiting for the audio's metadata, play refused by autoplay rules.
 * There are two elements: the current track's, and a spare one the next track of the queue is
 * preloaded into (gapless.ts) so that it starts the moment the current one ends.
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
  id: string;
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

/** The current track's element; the spare one has NEXT_ELEMENT_ID. The ids swap when the next track takes over. */
export const CURRENT_ELEMENT_ID = 'mesmer-audio';
const NEXT_ELEMENT_ID = 'mesmer-audio-next';

/** One of the page's two hidden audio elements. */
export function createAudioElement(): MediaElement {
  const audio = document.createElement('audio');
  audio.id = document.getElementById(CURRENT_ELEMENT_ID) ? NEXT_ELEMENT_ID : CURRENT_ELEMENT_ID;
  audio.preload = 'auto';
  audio.hidden = true;
  document.body.append(audio);
  return audio;
}

export function createAudioOutput(
  /** Makes an element; called twice, when the player first needs them. */
  createElement: () => MediaElement,
  opts: {
    tracker: ListeningTracker;
    /** Percent. */
    speed: () => number;
    /** The browser refused to start playing (autoplay rules). */
    onBlocked: () => void;
    /** A track's URL went into `element`, to play from `position` seconds (its normalisation gain follows it). */
    onLoaded: (element: MediaElement, track: PlayerTrack, position: number) => void;
    /** The preloaded element became the current one. */
    onSwitched: (element: MediaElement) => void;
    /** The two elements were made: the first time something was loaded into the player. */
    onMade: (elements: readonly MediaElement[]) => void;
  },
) {
  let elements: { current: MediaElement; spare: MediaElement } | null = null;
  function pair() {
    if (!elements) {
      elements = { current: createElement(), spare: createElement() };
      opts.onMade([elements.current, elements.spare]);
    }
    return elements;
  }
  const element = () => pair().current;

  /** The URL the current element holds. */
  let loadedUrl: string | null = null;
  /** The URL preloaded into the spare element, or null. */
  let preloadedUrl: string | null = null;
  /** Counts loads, so a load that waited for its session token knows when a newer one took over. */
  let loads = 0;
  /** Where to jump once the audio's metadata is in (seconds). */
  let pendingSeek: number | null = null;
  /** Whether the load waiting for its session token starts when it lands (Pause or Play meanwhile change it). */
  let startWhenLoaded = false;

  function setRate(a: MediaElement) {
    a.defaultPlaybackRate = a.playbackRate = opts.speed() / 100;
  }

  function start() {
    element()
      .play()
      .catch((err: unknown) => {
        // Blocked by the browser's autoplay rules: show it as paused. (AbortError: a newer load took over.)
        if (err instanceof DOMException && err.name === 'NotAllowedError') opts.onBlocked();
      });
  }

  /** The preloaded element becomes the current one, already holding its audio: no new load. */
  function switchToPreloaded() {
    const { current, spare } = pair();
    elements = { current: spare, spare: current };
    [spare.id, current.id] = [current.id, spare.id];
    loadedUrl = preloadedUrl;
    preloadedUrl = null;
    pendingSeek = null;
    opts.onSwitched(spare);
  }

  return {
    element,
    /** Both elements, or none while nothing was loaded yet (a page start makes no audio element). */
    made: (): readonly MediaElement[] => (elements ? [elements.current, elements.spare] : []),
    /** The element the next track is preloaded into. */
    spare: () => pair().spare,
    start,

    /**
     * Puts `track` in the element at `position` seconds (the same URL just rewinds), under its
     * listening session, and starts it when `play` and the listener did not pause meanwhile. The URL
     * is set once the session token is in; a newer load in the meantime wins. When the spare element
     * preloaded this very URL (the same session), it takes over instead.
     */
    load(track: PlayerTrack, position: number, play: boolean) {
      const load = ++loads;
      startWhenLoaded = play;
      void opts.tracker.open(track.id).then((sessionToken) => {
        if (load !== loads) return;
        const url = track.audioURL ? withSession(track.audioURL, sessionToken) : '';
        if (url && url === preloadedUrl && position === 0) {
          switchToPreloaded();
        } else if (url !== loadedUrl) {
          loadedUrl = url;
          pendingSeek = position > 0 ? position : null;
          const a = element();
          a.src = url;
          setRate(a);
          opts.onLoaded(a, track, position);
        } else {
          element().currentTime = position;
        }
        if (startWhenLoaded) start();
      });
    },

    /** The listener pressed Play or Pause: a load still waiting for its session token follows. */
    wantPlaying(playing: boolean) {
      startWhenLoaded = playing;
    },

    /** Fetches `track`'s audio into the spare element under `sessionToken` (the next track's session). */
    preload(track: PlayerTrack, sessionToken: string | null) {
      if (!track.audioURL) return;
      const spare = pair().spare;
      preloadedUrl = withSession(track.audioURL, sessionToken);
      spare.src = preloadedUrl;
      setRate(spare);
      opts.onLoaded(spare, track, 0);
    },

    /** Empties the spare element: its audio is not wanted any more. */
    dropPreload() {
      if (preloadedUrl === null) return;
      preloadedUrl = null;
      const spare = pair().spare;
      spare.removeAttribute('src');
      spare.load();
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
