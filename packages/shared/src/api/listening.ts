import { z } from 'zod';
import { errorResponse, id, int, TEXT_LIMITS, text, timezone } from './common.ts';
import { defineRoute } from './contract.ts';

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
  })
  .superRefine((body, issue) => {
    if (body.sessionToken !== undefined && body.fileId === undefined) {
      issue.addIssue({ code: 'custom', path: ['fileId'], message: 'is required when ending a session' });
    }
  });
export type SessionRequest = z.infer<typeof sessionRequest>;
export type StartSessionRequest = Pick<SessionRequest, 'timezone'>;
export type EndSessionRequest = Required<Pick<SessionRequest, 'sessionToken' | 'fileId'>> &
  Pick<SessionRequest, 'timezone' | 'listenedMs'>;

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

export const listeningApi = {
  session: defineRoute({
    method: 'POST',
    path: '/session',
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
      'listener cannot see.',
    body: sessionRequest,
    responses: { 200: sessionResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
  }),
};
