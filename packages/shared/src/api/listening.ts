import { z } from 'zod';
import { ONLINE_PLAY_SOURCES } from '../domain/insights.ts';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { listeningRoutes } from '../routes/listening.ts';
import { errorResponse, id, int, text, timezone } from './common.ts';
import { defineRoute } from './contract.ts';
import { offlineSessionsRequest } from './offline-session.ts';

/**
 * POST /api/session: one call with two shapes (as in the spec).
 * Start: `{timezone}` → `{token}`. End: `{sessionToken, timezone, fileId}` → `{token, points, totalPoints, streak}`.
 * Between the two the player fetches the file's audio with `&session=<token>`: only audio served
 * under the session earns points (docs/decisions/006).
 */
export const sessionRequest = z
  .object({
    /**
     * The listener's IANA time zone. On a signed-in start it is stored as the account's zone when
     * that last changed over a day ago; the streak counts days in the account's stored zone.
     */
    timezone: timezone.optional(),
    /** Present when ending: the token the start call answered. */
    sessionToken: text(TEXT_LIMITS.token).min(1).optional(),
    /** The file listened to; required when ending. */
    fileId: id.optional(),
    /**
     * Optional, when ending: how many milliseconds of the track the player actually played
     * (seeks and pauses left out). It can only lower the points, never raise them.
     */
    listenedMs: int().optional(),
    /**
     * Optional, when starting: where the play came from (insights' sources). Sent on an end it is
     * ignored; a session started without it counts under 'unknown'.
     */
    source: z.enum(ONLINE_PLAY_SOURCES).optional(),
    /** Optional, when ending: whether a toy was connected during the session (insights' toy share). */
    toyConnected: z.boolean().optional(),
  })
  .superRefine((body, issue) => {
    if (body.sessionToken !== undefined && body.fileId === undefined) {
      issue.addIssue({ code: 'custom', path: ['fileId'], message: 'is required when ending a session' });
    }
  });
export type SessionRequest = z.infer<typeof sessionRequest>;
export type StartSessionRequest = Pick<SessionRequest, 'timezone' | 'source'>;
export type EndSessionRequest = Required<Pick<SessionRequest, 'sessionToken' | 'fileId'>> &
  Pick<SessionRequest, 'timezone' | 'listenedMs' | 'toyConnected'>;

export const startSessionResponse = z.object({ token: z.string() });
export type StartSessionResponse = z.infer<typeof startSessionResponse>;

export const endSessionResponse = z.object({
  /** The ended session's token, echoed. */
  token: z.string(),
  /** Points this session earned (0 for anonymous listeners). */
  points: z.number().int(),
  /** The listener's points after this session (0 for anonymous listeners). */
  totalPoints: z.number().int(),
  /** The listener's daily streak after this session, in days (0 for anonymous listeners). */
  streak: z.number().int(),
});
export type EndSessionResponse = z.infer<typeof endSessionResponse>;

export const sessionResponse = z.union([endSessionResponse, startSessionResponse]);

/** Why the server credits nothing for an offline session (see the route's description). */
export const OFFLINE_REFUSALS = [
  'no-access',
  'no-offline-copy',
  'in-future',
  'too-old',
  'overlap',
  'nothing-heard',
] as const;
export type OfflineRefusal = (typeof OFFLINE_REFUSALS)[number];

export const offlineSessionResult = z.object({
  /** The session answered, as sent. */
  fileId: z.number().int(),
  startedAt: z.string(),
  /**
   * `credited`: counted now. `already-credited`: the same session (file and start) was credited
   * by an earlier call, figures as then, nothing added. `refused`: nothing counted, see `reason`.
   */
  status: z.enum(['credited', 'already-credited', 'refused']),
  reason: z.enum(OFFLINE_REFUSALS).optional(),
  /** Listening time credited for the session, and the points that made (0 when refused). */
  creditedMs: z.number().int(),
  points: z.number().int(),
});
export type OfflineSessionResult = z.infer<typeof offlineSessionResult>;

export const offlineSessionsResponse = z.object({
  /** One answer per session sent, in the order sent. */
  sessions: z.array(offlineSessionResult),
  /** Points this call added, the listener's points and daily streak after it. */
  points: z.number().int(),
  totalPoints: z.number().int(),
  streak: z.number().int(),
});
export type OfflineSessionsResponse = z.infer<typeof offlineSessionsResponse>;

export const listeningApi = {
  session: defineRoute(listeningRoutes.session, {
    tags: ['listening'],
    summary: 'Start ({timezone}) or end ({sessionToken, timezone, fileId}) an audio listening session',
    description:
      'Start answers `{token}`, for anonymous listeners too; the player then adds the token to its audio ' +
      'requests (`/media/audio/…&session=<token>`). End answers `{token, points, totalPoints, streak}`. ' +
      'What a session heard is the least of: the audio the media route served under the session (distinct ' +
      "bytes, as a share of the file's duration, and only of the file it is ended with), the wall-clock time " +
      "since it started, the file's duration and `listenedMs` when sent. A session whose listener may not play " +
      'the file hears nothing. Points: one per whole minute heard, not counting time before the end of the ' +
      "user's last credited session (overlapping sessions don't count twice). A play of the file counts when " +
      'at least 30 s (or half of a shorter track) was heard, once per listener and file an hour (anonymous ' +
      'listeners by address). A session started anonymously earns 0 points and only counts the play. A session ' +
      "earning at least one point keeps the daily streak, in the account's stored time zone: +1 when the last " +
      'counted day was yesterday, unchanged the same day, back to 1 after a gap. `timezone` on a signed-in ' +
      'start is stored on the account when it last changed more than a day ago, and ignored otherwise. Each ' +
      "session ends once: a second end is 409. Another user's or an unknown token is 404, as is a file the " +
      'listener cannot see. For insights (decision 047) the start may say where the play came from ' +
      '(`source`) and the end whether a toy was connected (`toyConnected`); an ended session adds to the ' +
      "file's and the listener's rollups in the same transaction.",
    body: sessionRequest,
    responses: { 200: sessionResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
  }),
  offline: defineRoute(listeningRoutes.offline, {
    tags: ['listening'],
    summary: 'Send plays made offline (from a kept copy) for credit, once the network is back',
    description:
      'Signed-in listeners only (401 otherwise). Up to 50 sessions `{fileId, startedAt, endedAt, listenedMs}`; ' +
      'each is answered `credited`, `already-credited` (the same file and start was credited by an earlier ' +
      'call: a retry adds nothing) or `refused` with a reason: `no-access` (the file is gone or the listener ' +
      'may no longer play it), `no-offline-copy` (the listener downloaded no whole copy of the file, through ' +
      "`/media/audio/…&offline=1`, before the session started), `in-future` (ends after the server's now), " +
      '`too-old` (started over 7 days ago), `overlap` (all its time falls in time already credited to the ' +
      'listener, online or offline) or `nothing-heard`. What a session heard is the least of its wall-clock ' +
      "time, the file's duration and `listenedMs`; of that only time outside the listener's credited sessions " +
      'counts. Credited time turns into points as online (one per minute, seconds carry over); a play of ' +
      'the file counts when 30 s (or half a shorter track) was heard and no play of it was counted for the ' +
      "listener within an hour of the session's end. A session earning a point counts its own day (by its " +
      "end, in the account's stored time zone) for the streak: it extends or restarts the streak when that " +
      'day is after the last counted day and changes nothing otherwise. Answers the points this call added, ' +
      'the total and the streak.',
    body: offlineSessionsRequest,
    responses: { 200: offlineSessionsResponse, 400: errorResponse, 401: errorResponse },
  }),
};
