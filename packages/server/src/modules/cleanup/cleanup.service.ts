import { RAW_SESSION_RETENTION_DAYS } from '@mesmer/shared/domain/insights';
import { ABANDONED_UPLOAD_MS } from '@mesmer/shared/domain/upload-limits';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, withTransaction } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { ListeningService } from '../listening/listening.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { createCleanupRepo } from './cleanup.repo.ts';

/** How often the server clears out rows nothing will read again. */
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
/** A listening session not ended within a day is abandoned (page closed without the end call). */
export const STALE_LISTENING_MS = 24 * 60 * 60 * 1000;

export interface CleanupResult {
  sessions: number;
  emailTokens: number;
  listeningSessions: number;
  /** Ended sessions whose raw insight detail (served ranges, source, toy, tier) passed the retention window. */
  listeningDetail: number;
  /** Uploads started ABANDONED_UPLOAD_MS ago and not made into files, removed with their bytes. */
  uploads: number;
}

export type CleanupService = ReturnType<typeof createCleanupService>;

export function createCleanupService({
  db,
  clock,
  auth,
  listening,
  uploads,
}: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  listening: ListeningService;
  uploads: UploadsService;
}) {
  return {
    /**
     * Deletes expired sign-in sessions, used or expired e-mail tokens, and listening sessions
     * left open for a day or ended a day ago without points, and uploads started a day ago (however
     * recently a chunk came) with their bytes; clears the raw detail of listening sessions ended over
     * RAW_SESSION_RETENTION_DAYS ago (insights' rollups stay). Null when another process is
     * cleaning up (an advisory lock, so several servers on one database take turns).
     */
    async run(): Promise<CleanupResult | null> {
      const now = clock.now();
      return withTransaction(db, async (tx) => {
        if (!(await createCleanupRepo(tx).tryLock())) return null;
        return {
          ...(await auth.deleteExpiredSignIns(tx, now)),
          listeningSessions: await listening.deleteStale(tx, new Date(now.getTime() - STALE_LISTENING_MS)),
          listeningDetail: await listening.clearRawDetail(
            tx,
            new Date(now.getTime() - RAW_SESSION_RETENTION_DAYS * 24 * 60 * 60 * 1000),
          ),
          uploads: await uploads.removeAbandoned(tx, new Date(now.getTime() - ABANDONED_UPLOAD_MS)),
        };
      });
    },
  };
}

/** Runs the clean-up every CLEANUP_INTERVAL_MS; answers the function that stops it. */
export function startCleanup(cleanup: CleanupService, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    cleanup.run().then(
      (result) => result && log.info({ deleted: result }, 'clean-up done'),
      (err: unknown) => log.error({ err }, 'clean-up failed'),
    );
  }, CLEANUP_INTERVAL_MS);
  // The timer alone does not keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
