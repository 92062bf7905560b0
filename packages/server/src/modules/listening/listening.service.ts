import type {
  EndSessionRequest,
  EndSessionResponse,
  StartSessionRequest,
  StartSessionResponse,
} from '@mesmer/shared/api/listening';
import { extendStreak, localDay } from '@mesmer/shared/domain/streak';
import type { Db } from '../../db/client.ts';
import type { AppContext } from '../../platform/context.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import type { SessionUser } from '../auth/session.repo.ts';
import { createFilesService } from '../files/files.service.ts';
import { createListeningRepo } from './listening.repo.ts';

const MINUTE_MS = 60_000;

/**
 * Points for one session: one per whole minute, counting only time that is all of
 * - wall-clock time since the session started, and since the user's last credited session
 *   ended (so overlapping sessions cannot count the same minutes twice),
 * - no longer than the file,
 * - no longer than the player says it actually played, when it says.
 */
export function listeningPoints(input: {
  startedAt: Date;
  endedAt: Date;
  creditedUntil: Date | null;
  fileDurationMs: number;
  listenedMs?: number;
}): number {
  const from = Math.max(input.startedAt.getTime(), input.creditedUntil?.getTime() ?? 0);
  const wallClockMs = Math.max(0, input.endedAt.getTime() - from);
  const ms = Math.min(wallClockMs, input.fileDurationMs, input.listenedMs ?? Number.POSITIVE_INFINITY);
  return Math.floor(ms / MINUTE_MS);
}

export function createListeningService(ctx: AppContext) {
  const repo = createListeningRepo(ctx.db);
  const filesService = createFilesService(ctx);

  return {
    /** Anyone may start a session; a signed-in listener's session earns points when it ends. */
    async start(user: SessionUser | null, _input: StartSessionRequest): Promise<StartSessionResponse> {
      const token = newToken();
      await repo.insertSession({
        tokenHash: hashToken(token),
        userId: user?.id ?? null,
        startedAt: ctx.clock.now(),
      });
      return { token };
    },

    /**
     * Ends a session once: counts a play of the file and, for the signed-in listener who
     * started it, awards the points and keeps the daily streak. A second end is a 409.
     */
    async end(user: SessionUser | null, input: EndSessionRequest): Promise<EndSessionResponse> {
      const session = await repo.findSession(hashToken(input.sessionToken));
      // Someone else's session reads as unknown, so tokens cannot be probed.
      if (!session || (session.userId !== null && session.userId !== user?.id)) {
        throw new NotFound('Listening session not found.');
      }
      if (session.endedAt) throw new Conflict('This listening session has already ended.');
      const viewer = await filesService.viewerFor(user);
      const visible = await filesService.repo.visibleIds([input.fileId], viewer);
      if (!visible.has(input.fileId)) throw new NotFound('File not found.');

      const now = ctx.clock.now();
      return ctx.db.transaction(async (tx) => {
        const txRepo = createListeningRepo(tx as unknown as Db);
        if (!(await txRepo.claimEnd(session.id, now, input.fileId))) {
          throw new Conflict('This listening session has already ended.');
        }
        await txRepo.countPlay(input.fileId);
        const nothing = { token: input.sessionToken, points: 0, totalPoints: 0, streak: 0 };
        if (session.userId === null) return nothing;

        // Locking the account serialises a user's session ends, so credited time is never counted twice.
        const account = await txRepo.lockAccount(session.userId);
        if (!account) return nothing;
        const points = listeningPoints({
          startedAt: session.startedAt,
          endedAt: now,
          creditedUntil: await txRepo.lastCreditedEnd(session.userId),
          fileDurationMs: (await txRepo.fileDuration(input.fileId)) ?? 0,
          listenedMs: input.listenedMs,
        });
        if (points === 0) {
          return { ...nothing, totalPoints: account.points, streak: account.streak };
        }
        const today = localDay(now, input.timezone ?? account.timezone);
        const streak = extendStreak({ streak: account.streak, lastDay: account.lastListenDay }, today);
        const totalPoints = await txRepo.award(session.userId, session.id, {
          points,
          streak: streak.streak,
          lastListenDay: streak.lastDay ?? today,
        });
        return { token: input.sessionToken, points, totalPoints, streak: streak.streak };
      });
    },
  };
}
export type ListeningService = ReturnType<typeof createListeningService>;
