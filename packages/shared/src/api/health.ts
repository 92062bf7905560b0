import { z } from 'zod';
import { healthRoutes } from '../routes/health.ts';
import { defineRoute } from './contract.ts';

/** One dependency: answering, not answering, or not used by this server (Redis without REDIS_URL). */
export const dependencyStatus = z.enum(['up', 'down', 'not configured']);

export const healthResponse = z.object({
  /** 'ok' (200) when every configured dependency is up, else 'unavailable' (503). */
  status: z.enum(['ok', 'unavailable']),
  /** Which database the server uses. */
  database: z.enum(['pglite', 'postgres']),
  dependencies: z.object({
    database: dependencyStatus,
    redis: dependencyStatus,
    /** The media store: the local folder (DATA_DIR/media) or the S3 bucket (`storage`). */
    storage: dependencyStatus,
  }),
  storage: z.enum(['local', 's3']),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const healthApi = {
  check: defineRoute(healthRoutes.check, {
    tags: ['health'],
    summary: 'Whether the server and each dependency it uses answer',
    description:
      'Checks the database, Redis (when configured) and the media store, each within 2 s. ' +
      'Answers 200 when all are up, 503 with the same body when one is down.',
    responses: { 200: healthResponse, 503: healthResponse },
  }),
};
