/**
 * Gapless playback. While the current track plays its last PRELOAD_AHEAD_SECONDS, the track the
 * queue moves to at its end is fetched into the spare element, under that track's own listening
 * session: the server credits only audio served under a session, so the audio is fetched with
 * the token it will be heard under. At the end the spare element takes over without a new load,
 * and the tracker's session for it is the one the preload started (`sessionHandover`).
 *
 * A preload the queue no longer leads to (a skip, another queue, loop or shuffle changed) is
 * dropped and its session ended as heard for 0 ms: a track never played credits nothing. Its
 * early start lends it no time either, since a session credits only time after the listener's
 * previous credited session ended (decision 026).
 */
import type { StartSessionResponse } from '@mesmer/shared/api/listening';
import { isPlayable, queueReducer } from '@mesmer/shared/domain/player-queue';
import { browserTimezone } from '../lib/api-client.ts';
import type { AudioOutput } from './audio-element.ts';
import type { SessionCalls } from './listening-session.ts';
import type { PlayerQueue } from './store.ts';
import type { PlayerTrack } from './types.ts';

/** The next track is preloaded when the current one has this long left (real time). */
export const PRELOAD_AHEAD_SECONDS = 30;

interface Next {
  /** The queue's index and start count once the current track ended. */
  index: number;
  starts: number;
  track: PlayerTrack;
}

interface Preload extends Next {
  /** The draw the end is dispatched with (shuffle picks by it), so the prediction holds. */
  random: number;
  session: Promise<StartSessionResponse>;
  /** Its audio is in the spare element. */
  ready: boolean;
}

/** Where the queue goes when its current track ends with `random`; null when no track starts then. */
function nextAfterEnd(queue: PlayerQueue, random: number): Next | null {
  if (queue.index === -1) return null;
  const after = queueReducer(queue, { type: 'ended', random });
  if (after.index === -1 || after.starts === queue.starts) return null;
  const track = after.tracks[after.index];
  if (!track?.audioURL || !isPlayable(track)) return null;
  return { index: after.index, starts: after.starts, track };
}

const sameNext = (a: Next, b: Next) =>
  a.index === b.index &&
  a.starts === b.starts &&
  a.track.id === b.track.id &&
  a.track.audioURL === b.track.audioURL;

/**
 * The session calls the listening tracker makes, through which a preloaded track's session is
 * handed to it: while `during` runs, the tracker's next session start is that session.
 */
export function sessionHandover(sessions: SessionCalls) {
  let handed: Promise<StartSessionResponse> | null = null;
  const calls: SessionCalls = {
    start() {
      const session = handed;
      handed = null;
      return session ?? sessions.start();
    },
    end: (body) => sessions.end(body),
    endOnUnload: (body) => sessions.endOnUnload(body),
  };
  return {
    calls,
    /** Runs `run` with `session` handed over; answers whether the tracker took it. */
    during(session: Promise<StartSessionResponse>, run: () => void): boolean {
      handed = session;
      try {
        run();
        return handed === null;
      } finally {
        handed = null;
      }
    },
  };
}
export type SessionHandover = ReturnType<typeof sessionHandover>;

export function createGapless(deps: {
  audio: AudioOutput;
  /** The server's own session calls (not the tracker's). */
  sessions: SessionCalls;
  handover: SessionHandover;
  queue: () => PlayerQueue;
  /** The end of the current track stops playback (sleep timer, awakener): the next one waits paused. */
  stopsAtEnd: () => boolean;
  random: () => number;
}) {
  const { audio } = deps;
  let preload: Preload | null = null;
  /** The start (queue.starts) whose preload failed to load: not tried again for it. */
  let failedAt: number | null = null;

  function drop() {
    const dropped = preload;
    if (!dropped) return;
    preload = null;
    audio.dropPreload();
    void dropped.session
      .then(({ token }) =>
        deps.sessions.end({
          sessionToken: token,
          fileId: dropped.track.id,
          timezone: browserTimezone(),
          listenedMs: 0,
        }),
      )
      .catch(() => undefined);
  }

  return {
    /** The playhead moved while playing: preload the next track once the current one nears its end. */
    check() {
      const queue = deps.queue();
      const a = audio.element();
      if (preload || failedAt === queue.starts || !queue.playing || a.paused || deps.stopsAtEnd()) return;
      if (!Number.isFinite(a.duration) || a.duration <= 0) return;
      if ((a.duration - a.currentTime) / (a.playbackRate || 1) > PRELOAD_AHEAD_SECONDS) return;
      const random = deps.random();
      const next = nextAfterEnd(queue, random);
      if (!next) return;
      const started: Preload = { ...next, random, session: deps.sessions.start(), ready: false };
      preload = started;
      void started.session
        .then(
          ({ token }) => token,
          () => null,
        )
        .then((token) => {
          if (preload !== started) return;
          audio.preload(started.track, token);
          started.ready = true;
        });
    },

    /** The queue changed: a preload it no longer leads to goes. */
    queueChanged() {
      if (!preload) return;
      const next = nextAfterEnd(deps.queue(), preload.random);
      if (!next || !sameNext(next, preload)) drop();
    },

    /** The spare element could not load the next track: it will load when it starts instead. */
    preloadFailed() {
      if (!preload) return;
      failedAt = deps.queue().starts;
      drop();
    },

    /**
     * The current track ended: `dispatchEnded` moves the queue on. With the next track
     * preloaded, the spare element and its session take over.
     */
    ended(dispatchEnded: (random: number) => void) {
      const ready = preload;
      const next = ready && nextAfterEnd(deps.queue(), ready.random);
      if (!ready?.ready || !next || !sameNext(next, ready)) {
        drop();
        dispatchEnded(deps.random());
        return;
      }
      preload = null;
      const taken = deps.handover.during(ready.session, () => dispatchEnded(ready.random));
      if (!taken) {
        // Not loaded after all: let the session and its audio go as a dropped preload.
        preload = ready;
        drop();
      }
    },
  };
}
