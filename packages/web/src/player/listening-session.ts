/**
 * Listening sessions: one per play of a track, started when the track is loaded (before its
 * audio is fetched: the audio URL carries the session token, and the server only credits the
 * audio it served under the session) and ended when the track ends or is left (skip, loop,
 * another queue, page close). The server decides the points; this reports which file and how
 * much of it really played.
 */
import { routePath } from '@mesmer/shared/api/contract';
import {
  type EndSessionRequest,
  type EndSessionResponse,
  listeningApi,
  type StartSessionResponse,
} from '@mesmer/shared/api/listening';
import { ApiError, browserTimezone, call } from '../lib/api-client.ts';

/** The audio URL with the listening session's token, so the server credits what it serves. */
export function withSession(audioUrl: string, sessionToken: string | null): string {
  if (!sessionToken) return audioUrl;
  return `${audioUrl}${audioUrl.includes('?') ? '&' : '?'}session=${encodeURIComponent(sessionToken)}`;
}

/** A larger step between two playhead reports is a jump, not listening. */
const MAX_PLAYED_STEP_SECONDS = 5;

interface OpenSession {
  fileId: number;
  token: Promise<string | null>;
  /** Seconds of the track heard so far (seeks and pauses left out). */
  listened: number;
  /** The playhead at the last report, or null after a seek. */
  lastTime: number | null;
}

/** The server calls a tracker makes; the engine's tests pass fakes. */
export interface SessionCalls {
  /** POST /api/session {timezone}: starts a session, answers its token. */
  start(): Promise<StartSessionResponse>;
  /** POST /api/session with the token: ends it, answers the points. */
  end(body: EndSessionRequest): Promise<EndSessionResponse>;
  /** The same end, sent so that it outlives the page (pagehide). */
  endOnUnload(body: EndSessionRequest): void;
}

export const sessionCalls: SessionCalls = {
  start: () => call(listeningApi.session, { body: { timezone: browserTimezone() } }),
  async end(body) {
    const answer = await call(listeningApi.session, { body });
    // One route answers both shapes; an end with a token always gets the end shape.
    if (!('points' in answer)) throw new ApiError(200, 'The session end was answered as a start.');
    return answer;
  },
  endOnUnload(body) {
    void fetch(`/api${routePath(listeningApi.session)}`, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  },
};

export function createListeningTracker(
  onEnded: (result: EndSessionResponse) => void,
  calls: SessionCalls = sessionCalls,
) {
  let open: OpenSession | null = null;

  function take() {
    const session = open;
    open = null;
    return (
      session && {
        fileId: session.fileId,
        token: session.token,
        listenedMs: Math.round(session.listened * 1000),
      }
    );
  }

  function endBody(fileId: number, sessionToken: string, listenedMs: number): EndSessionRequest {
    return { sessionToken, fileId, timezone: browserTimezone(), listenedMs };
  }

  return {
    /**
     * The session to load `fileId`'s audio under: the open one when it is for that file (a URL
     * refresh), else a new one. Resolves to its token, or null when it could not be started.
     */
    open(fileId: number): Promise<string | null> {
      if (open?.fileId === fileId) return open.token;
      void this.finish();
      const token = calls
        .start()
        .then((r) => r.token)
        .catch(() => null);
      open = { fileId, token, listened: 0, lastTime: null };
      return token;
    },

    /** Whether a session is open (none after a track ended, until it is loaded again). */
    isOpen: () => open !== null,

    /** The playhead moved to `seconds` while playing. */
    progress(seconds: number) {
      if (!open) return;
      const last = open.lastTime;
      if (last !== null && seconds > last && seconds - last <= MAX_PLAYED_STEP_SECONDS)
        open.listened += seconds - last;
      open.lastTime = seconds;
    },

    /** A seek: the next report starts a new stretch. */
    jumped() {
      if (open) open.lastTime = null;
    },

    /** Ends the open session (if any); failures are silent, like the other background calls. */
    async finish(): Promise<void> {
      const taken = take();
      if (!taken) return;
      const sessionToken = await taken.token;
      if (!sessionToken) return;
      try {
        onEnded(await calls.end(endBody(taken.fileId, sessionToken, taken.listenedMs)));
      } catch {
        // A lost end only loses that session's points.
      }
    },

    /** The page is going away: end the session with a request that outlives the page. */
    finishOnUnload() {
      const taken = take();
      if (!taken) return;
      void taken.token.then((sessionToken) => {
        if (sessionToken) calls.endOnUnload(endBody(taken.fileId, sessionToken, taken.listenedMs));
      });
    },
  };
}
export type ListeningTracker = ReturnType<typeof createListeningTracker>;
