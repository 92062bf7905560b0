/** The device's media controls (lock screen, headset keys) through the Media Session API, when supported. */

/** The spec's media-session seek step. */
export const MEDIA_SEEK_SECONDS = 10;

export interface MediaSessionHandlers {
  play(): void;
  pause(): void;
  previous(): void;
  next(): void;
  /** Relative seek in seconds (negative goes back). */
  seekBy(seconds: number): void;
  seekTo(seconds: number): void;
  stop(): void;
}

/** The app's icons, for lock screens and notification shades (no file has its own picture). */
export const MEDIA_ARTWORK: MediaImage[] = [
  { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
  { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
  { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
];

function session(): MediaSession | null {
  return typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;
}

function setHandler(ms: MediaSession, action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
  try {
    ms.setActionHandler(action, handler);
  } catch {
    // This browser does not know the action.
  }
}

/** Registers the handlers; the returned function removes them. */
export function bindMediaSession(h: MediaSessionHandlers): () => void {
  const ms = session();
  if (!ms) return () => {};
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => h.play()],
    ['pause', () => h.pause()],
    ['previoustrack', () => h.previous()],
    ['nexttrack', () => h.next()],
    ['seekbackward', (d) => h.seekBy(-(d.seekOffset ?? MEDIA_SEEK_SECONDS))],
    ['seekforward', (d) => h.seekBy(d.seekOffset ?? MEDIA_SEEK_SECONDS)],
    ['seekto', (d) => d.seekTime !== undefined && h.seekTo(d.seekTime)],
    ['stop', () => h.stop()],
  ];
  for (const [action, handler] of handlers) setHandler(ms, action, handler);
  return () => {
    for (const [action] of handlers) setHandler(ms, action, null);
  };
}

export function showMediaMetadata(track: { name: string; author: string; album: string } | null) {
  const ms = session();
  if (!ms) return;
  if (!track || typeof MediaMetadata === 'undefined') {
    ms.metadata = null;
    return;
  }
  ms.metadata = new MediaMetadata({
    title: track.name,
    artist: track.author,
    album: track.album,
    artwork: MEDIA_ARTWORK,
  });
}

export function showMediaPlaybackState(state: MediaSessionPlaybackState) {
  const ms = session();
  if (ms) ms.playbackState = state;
}

/** Keeps the device's progress bar right; skipped while the length is unknown. */
export function showMediaPosition(duration: number, playbackRate: number, position: number) {
  const ms = session();
  if (!ms?.setPositionState) return;
  if (!Number.isFinite(duration) || duration <= 0 || playbackRate <= 0) return;
  try {
    ms.setPositionState({ duration, playbackRate, position: Math.min(Math.max(0, position), duration) });
  } catch {
    // Inconsistent values during a track change; the next update corrects it.
  }
}
