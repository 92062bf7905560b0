/**
 * Listening sessions: one per play of a track, started when the track is loaded (before its
 * audio is fetched: the audio URL carries the session token, and the server only credits the
 * audio it served under the session) and ended when the track ends or is left (skip, loop,
 * another queue, page close). The server decides the points; this reports which file and how
 * much of it really played.
 *
 * Offline (the start call cannot reach the server, the audio comes from a kept copy) the play is
 * written to a queue in localStorage instead, and the queue goes to POST /api/session/offline when
 * the network is back and at app start (decision 029).
 */

import type {
  EndSessionRequest,
  EndSessionResponse,
  StartSessionResponse,
} from '@mesmer/shared/api/listening';
import type { OfflineSession } from '@mesmer/shared/api/offline-session';
import type { OnlinePlaySource } from '@mesmer/shared/domain/insights';
import { routePath } from '@mesmer/shared/routes/address';
import { listeningRoutes } from '@mesmer/shared/routes/listening';
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
  /** When the track was loaded (ms since the epoch). */
  startedAt: number;
  /** The start call failed because the network is down: the play goes to the offline queue. */
  offline: boolean;
}

/** Plays made offline, waiting to be sent (an array of OfflineSession). */
const OFFLINE_QUEUE_KEY = 'player.offlineListening';
/** The server refuses offline plays that started longer ago; the queue drops them. */
const OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

type OfflinePlayRules = typeof import('@mesmer/shared/api/offline-session');
type OfflinePlayRule = OfflinePlayRules['offlineSession'];
/** The rules of offline plays, once loaded: with zod, only when there is a play to check. */
let offlinePlayRules: OfflinePlayRules | null = null;
async function loadOfflinePlayRules(): Promise<OfflinePlayRules> {
  offlinePlayRules ??= await import('@mesmer/shared/api/offline-session');
  return offlinePlayRules;
}

/** Whether an earlier visit left plays to send (the queue's key is removed when it empties). */
function playsQueued(): boolean {
  try {
    return localStorage.getItem(OFFLINE_QUEUE_KEY) !== null;
  } catch {
    return false;
  }
}

/** The queued plays still worth sending; entries that are damaged or too old are left out. */
function readOfflineQueue(rule: OfflinePlayRule): OfflineSession[] {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(OFFLINE_QUEUE_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const oldest = Date.now() - OFFLINE_MAX_AGE_MS;
  return stored.flatMap((entry) => {
    const parsed = rule.safeParse(entry);
    return parsed.success && Date.parse(parsed.data.startedAt) >= oldest ? [parsed.data] : [];
  });
}

function writeOfflineQueue(queue: OfflineSession[]) {
  try {
    if (queue.length === 0) localStorage.removeItem(OFFLINE_QUEUE_KEY);
    else localStorage.setItem(OFFLINE_QUEUE_KEY, JSON.stringify(queue));
  } catch {
    // Storage full or disabled: the play is lost, as an end that cannot be sent is.
  }
}

const sameSession = (a: OfflineSession, b: OfflineSession) =>
  a.fileId === b.fileId && a.startedAt === b.startedAt;

/** Whether a failed call failed for want of a network (fetch rejects with a TypeError then). */
function networkDown(err: unknown): boolean {
  return err instanceof TypeError || navigator.onLine === false;
}

/** The server calls a tracker makes; the engine's tests pass fakes. */
export interface SessionCalls {
  /** POST /api/session {timezone, source}: starts a session, answers its token. */
  start(source?: OnlinePlaySource): Promise<StartSessionResponse>;
  /** POST /api/session with the token: ends it, answers the points. */
  end(body: EndSessionRequest): Promise<EndSessionResponse>;
  /** The same end, sent so that it outlives the page (pagehide). */
  endOnUnload(body: EndSessionRequest): void;
}

export const sessionCalls: SessionCalls = {
  start: (source) => call(listeningRoutes.session, { body: { timezone: browserTimezone(), source } }),
  async end(body) {
    const answer = await call(listeningRoutes.session, { body });
    // One route answers both shapes; an end with a token always gets the end shape.
    if (!('points' in answer)) throw new ApiError(200, 'The session end was answered as a start.');
    return answer;
  },
  endOnUnload(body) {
    void fetch(`/api${routePath(listeningRoutes.session)}`, {
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
  let sending: Promise<void> | null = null;

  function take() {
    const session = open;
    open = null;
    return (
      session && {
        session,
        fileId: session.fileId,
        token: session.token,
        listenedMs: Math.round(session.listened * 1000),
        endedAt: Date.now(),
      }
    );
  }

  /** A play whose session could not start for want of a network goes to the offline queue. */
  async function keepOffline(taken: NonNullable<ReturnType<typeof take>>) {
    if (!taken.session.offline || taken.listenedMs <= 0) return;
    const rule = (offlinePlayRules ?? (await loadOfflinePlayRules())).offlineSession;
    const play = rule.safeParse({
      fileId: taken.fileId,
      startedAt: new Date(taken.session.startedAt).toISOString(),
      endedAt: new Date(taken.endedAt).toISOString(),
      listenedMs: taken.listenedMs,
    });
    if (!play.success) return;
    writeOfflineQueue([...readOfflineQueue(rule), play.data]);
    if (navigator.onLine) void sendOffline();
  }

  /**
   * Sends the queue, MAX_OFFLINE_SESSIONS at a time, and removes what the server answered
   * (credited or refused, it will not change its mind). A 400 drops the batch for the same reason;
   * anything else (no network, signed out, busy) keeps it for the next try.
   */
  async function sendQueue() {
    // Without a wait once loaded: a send starts at once when the network returns.
    const { offlineSession: rule, MAX_OFFLINE_SESSIONS } = offlinePlayRules ?? (await loadOfflinePlayRules());
    for (;;) {
      const batch = readOfflineQueue(rule).slice(0, MAX_OFFLINE_SESSIONS);
      if (batch.length === 0) return writeOfflineQueue([]);
      try {
        const answer = await call(listeningRoutes.offline, { body: { sessions: batch } });
        // No single session to echo: the points the batch earned and the totals after it.
        const { points, totalPoints, streak } = answer;
        if (points > 0) onEnded({ token: '', points, totalPoints, streak });
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) return;
      }
      // Plays queued while this call was out stay.
      writeOfflineQueue(
        readOfflineQueue(rule).filter((queued) => !batch.some((sent) => sameSession(sent, queued))),
      );
    }
  }

  function sendOffline(): Promise<void> {
    sending ??= sendQueue().finally(() => {
      sending = null;
    });
    return sending;
  }

  window.addEventListener('online', () => void sendOffline());
  // At app start: what an earlier visit could not send.
  if (playsQueued()) void sendOffline();

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
      const session: OpenSession = {
        fileId,
        token: Promise.resolve(null),
        listened: 0,
        lastTime: null,
        startedAt: Date.now(),
        offline: false,
      };
      session.token = calls
        .start()
        .then((r) => r.token)
        .catch((err: unknown) => {
          session.offline = networkDown(err);
          return null;
        });
      open = session;
      return session.token;
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
      if (!sessionToken) return keepOffline(taken);
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
        else void keepOffline(taken);
      });
    },
  };
}
export type ListeningTracker = ReturnType<typeof createListeningTracker>;
