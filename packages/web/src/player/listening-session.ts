/**
 * Listening sessions: one per play of a track, started when the audio actually begins and
 * ended when the track ends or is left (skip, another queue, page close). The server decides
 * the points; this only reports which file and how long it really played.
 */
import type { EndSessionResponse, StartSessionResponse } from '@mesmer/shared/api/listening';
import { api, browserTimezone } from '../lib/api-client.ts';

interface OpenSession {
  fileId: number;
  token: Promise<string | null>;
  /** Milliseconds played before the current stretch. */
  listenedMs: number;
  /** performance.now() when the current stretch of playing began, or null while paused. */
  playingSince: number | null;
}

export function createListeningTracker(onEnded: (result: EndSessionResponse) => void) {
  let open: OpenSession | null = null;

  function listened(session: OpenSession): number {
    const stretch = session.playingSince === null ? 0 : performance.now() - session.playingSince;
    return Math.round(session.listenedMs + stretch);
  }

  function take(): { session: OpenSession; listenedMs: number } | null {
    if (!open) return null;
    const session = open;
    open = null;
    return { session, listenedMs: listened(session) };
  }

  return {
    /** The audio is playing `fileId`: opens a session if none is open, and times the stretch. */
    playing(fileId: number) {
      if (!open) {
        const token = api<StartSessionResponse>('/session', {
          method: 'POST',
          body: { timezone: browserTimezone() },
        })
          .then((r) => r.token)
          .catch(() => null);
        open = { fileId, token, listenedMs: 0, playingSince: null };
      }
      open.playingSince ??= performance.now();
    },

    paused() {
      if (!open || open.playingSince === null) return;
      open.listenedMs = listened(open);
      open.playingSince = null;
    },

    /** Ends the open session (if any); failures are silent, like the other background calls. */
    async finish(): Promise<void> {
      const taken = take();
      if (!taken) return;
      const sessionToken = await taken.session.token;
      if (!sessionToken) return;
      try {
        const result = await api<EndSessionResponse>('/session', {
          method: 'POST',
          body: {
            sessionToken,
            fileId: taken.session.fileId,
            timezone: browserTimezone(),
            listenedMs: taken.listenedMs,
          },
        });
        onEnded(result);
      } catch {
        // A lost end only loses that session's points.
      }
    },

    /** The page is going away: end the session with a request that outlives the page. */
    finishOnUnload() {
      const taken = take();
      if (!taken) return;
      void taken.session.token.then((sessionToken) => {
        if (!sessionToken) return;
        void fetch('/api/session', {
          method: 'POST',
          keepalive: true,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            sessionToken,
            fileId: taken.session.fileId,
            timezone: browserTimezone(),
            listenedMs: taken.listenedMs,
          }),
        }).catch(() => undefined);
      });
    },
  };
}
export type ListeningTracker = ReturnType<typeof createListeningTracker>;
