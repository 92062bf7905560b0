import type {
  EndSessionRequest,
  EndSessionResponse,
  StartSessionRequest,
  StartSessionResponse,
} from '@mesmer/shared/api/listening';
import { extendStreak, localDay } from '@mesmer/shared/domain/streak';
import type { Db } from '../../db/client.ts';
import { createAccess, type SessionUser } from '../../platform/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import { createUsersService } from '../users/users.service.ts';
import { createListeningRepo } from './listening.repo.ts';
import { addServedRange, servedBytes } from './served-ranges.ts';

const MINUTE_MS = 60_000;
/** A listener's play of a file counts at most once in this window. */
export const PLAY_WINDOW_MS = 60 * MINUTE_MS;
/** A play counts after this much of the track was heard, or half the track when that is less. */
export const PLAY_MIN_MS = 30_000;

/**
 * Milliseconds of the track the session really had: all of
 * - the audio the media route served under it (distinct bytes, as a share of the file's duration),
 * - the wall-clock time since the session started,
 * - the file's duration,
 * - the time the player says it played, when it says (it can only lower the figure).
 */
export function heardMs(input: {
  startedAt: Date;
  endedAt: Date;
  fileDurationMs: number;
  deliveredMs: number;
  listenedMs?: number;
}): number {
  const wallClockMs = Math.max(0, input.endedAt.getTime() - input.startedAt.getTime());
  return Math.min(
    wallClockMs,
    input.fileDurationMs,
    input.deliveredMs,
    input.listenedMs ?? Number.POSITIVE_INFINITY,
  );
}

/**
 * The listening time one session credits: what it heard (heardMs), and of that only the time
 * after the user's last credited session ended, so overlapping sessions cannot count the same
 * time twice.
 */
export function creditedMs(input: {
  startedAt: Date;
  endedAt: Date;
  creditedUntil: Date | null;
  fileDurationMs: number;
  deliveredMs: number;
  listenedMs?: number;
}): number {
  const from = Math.max(input.startedAt.getTime(), input.creditedUntil?.getTime() ?? 0);
  const uncreditedMs = Math.max(0, input.endedAt.getTime() - from);
  return Math.floor(Math.min(heardMs(input), uncreditedMs));
}

/**
 * One point per whole minute of credited listening, counted across sessions: the seconds below a
 * minute carry over to the next session (decision 026), so short tracks add up.
 */
export function pointsWithCarry(carryMs: number, credited: number): { points: number; carryMs: number } {
  const total = carryMs + credited;
  return { points: Math.floor(total / MINUTE_MS), carryMs: total % MINUTE_MS };
}

/** Whether a session that heard `heard` ms of a `durationMs` track counts as a play. */
/**
 * Clean-up (modules/cleanup): deletes listening sessions nothing reads any more, inside the
 * caller's transaction. Answers how many went.
 */
export function deleteStaleListeningSessions(db: Db, before: Date): Promise<number> {
  return createListeningRepo(db).deleteStale(before);
}

export function countsAsPlay(heard: number, durationMs: number): boolean {
  return heard > 0 && heard >= Math.min(PLAY_MIN_MS, durationMs / 2);
}

/** What one media request served under a listening session. */
export interface ServedAudio {
  sessionToken: string;
  fileId: number;
  /** The stored audio's size in bytes. */
  audioSize: number;
  /** The inclusive byte range actually sent. */
  start: number;
  end: number;
}

export function createListeningService(ctx: AppContext) {
  const repo = createListeningRepo(ctx.db);
  const access = createAccess(ctx.db);
  const usersService = createUsersService(ctx);

  return {
    /**
     * Anyone may start a session; a signed-in listener's session earns points when it ends.
     * The time zone sent is stored on the account when it may change (once a day).
     */
    async start(user: SessionUser | null, input: StartSessionRequest): Promise<StartSessionResponse> {
      if (user && input.timezone) await usersService.adoptTimezone(user.id, input.timezone);
      const token = newToken();
      await repo.insertSession({
        tokenHash: hashToken(token),
        userId: user?.id ?? null,
        startedAt: ctx.clock.now(),
      });
      return { token };
    },

    /**
     * The media route served bytes of a file's audio under a session: the first audio binds
     * the session to its file, and the distinct bytes are kept. Audio of another file, for an
     * ended session, or asked for by someone other than the session's user is not recorded.
     */
    async recordServed(user: SessionUser | null, served: ServedAudio): Promise<void> {
      await ctx.db.transaction(async (tx) => {
        const txRepo = createListeningRepo(tx as unknown as Db);
        const session = await txRepo.lockSession(hashToken(served.sessionToken));
        if (!session || session.endedAt) return;
        if (session.userId !== null && session.userId !== user?.id) return;
        if (session.fileId !== null && session.fileId !== served.fileId) return;
        const sameAudio = session.audioSize === null || session.audioSize === served.audioSize;
        const ranges = addServedRange(sameAudio ? session.servedRanges : [], served.start, served.end);
        if (ranges === session.servedRanges) return;
        await txRepo.recordServed(session.id, {
          fileId: served.fileId,
          audioSize: served.audioSize,
          servedRanges: ranges,
        });
      });
    },

    /**
     * Ends a session once. What it heard is what the media route served of the file under it
     * (see heardMs): a session ended with another file than the one it was served, or for a file
     * the listener may no longer play, heard nothing. A play counts when enough was heard, once
     * per listener and file in PLAY_WINDOW_MS; points and the streak go to the signed-in listener
     * who started it, the streak's day in the account's stored time zone. A second end is a 409.
     */
    async end(
      user: SessionUser | null,
      input: EndSessionRequest,
      clientIp: string,
    ): Promise<EndSessionResponse> {
      const session = await repo.findSession(hashToken(input.sessionToken));
      // Someone else's session reads as unknown, so tokens cannot be probed.
      if (!session || (session.userId !== null && session.userId !== user?.id)) {
        throw new NotFound('Listening session not found.');
      }
      if (session.endedAt) throw new Conflict('This listening session has already ended.');
      const viewer = await access.viewer(user);
      const visible = await access.files.visible(viewer, [input.fileId]);
      if (!visible.has(input.fileId)) throw new NotFound('File not found.');
      const served =
        session.fileId === input.fileId &&
        session.audioSize !== null &&
        session.audioSize > 0 &&
        (await access.files.playable(viewer, [input.fileId])).has(input.fileId);

      const now = ctx.clock.now();
      return ctx.db.transaction(async (tx) => {
        const txRepo = createListeningRepo(tx as unknown as Db);
        if (!(await txRepo.claimEnd(session.id, now))) {
          throw new Conflict('This listening session has already ended.');
        }
        const nothing = { token: input.sessionToken, points: 0, totalPoints: 0, streak: 0 };
        // Locking the file serialises its plays, so one listener's play counts once per window.
        const fileDurationMs = (await txRepo.lockFile(input.fileId)) ?? 0;
        const deliveredMs =
          served && session.audioSize
            ? (servedBytes(session.servedRanges) / session.audioSize) * fileDurationMs
            : 0;
        const timing = {
          startedAt: session.startedAt,
          endedAt: now,
          fileDurationMs,
          deliveredMs,
          listenedMs: input.listenedMs,
        };
        const listener = session.userId !== null ? `user:${session.userId}` : `ip:${hashToken(clientIp)}`;
        if (
          countsAsPlay(heardMs(timing), fileDurationMs) &&
          !(await txRepo.playCountedSince(listener, input.fileId, new Date(now.getTime() - PLAY_WINDOW_MS)))
        ) {
          await txRepo.countPlay(session.id, input.fileId, listener);
        }
        if (session.userId === null) return nothing;

        // Locking the account serialises a user's session ends, so credited time is never counted twice.
        const account = await txRepo.lockAccount(session.userId);
        if (!account) return nothing;
        const credited = creditedMs({
          ...timing,
          creditedUntil: await txRepo.lastCreditedEnd(session.userId),
        });
        if (credited === 0) {
          return { ...nothing, totalPoints: account.points, streak: account.streak };
        }
        const { points, carryMs } = pointsWithCarry(account.listeningCarryMs, credited);
        // The streak counts days on which a point was earned.
        const today = localDay(now, account.timezone);
        const streak =
          points > 0 ? extendStreak({ streak: account.streak, lastDay: account.lastListenDay }, today) : null;
        const totalPoints = await txRepo.award(session.userId, session.id, {
          creditedMs: credited,
          points,
          carryMs,
          streak: streak ? { streak: streak.streak, lastListenDay: streak.lastDay ?? today } : undefined,
        });
        return {
          token: input.sessionToken,
          points,
          totalPoints,
          streak: streak?.streak ?? account.streak,
        };
      });
    },
  };
}
