import { z } from 'zod';
import { id, int, TEXT_LIMITS, text, timezone } from './common.ts';

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
