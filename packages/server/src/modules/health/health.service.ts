import type { HealthResponse } from '@mesmer/shared/api/health';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { loadOnDemand } from '../../platform/load-on-demand.ts';
import type { Storage } from '../../platform/storage.ts';
import { createHealthRepo } from './health.repo.ts';

type Dependency = keyof HealthResponse['dependencies'];

/** How long one dependency may take to answer before it counts as down. */
const CHECK_TIMEOUT_MS = 2000;

function withinTimeout(work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
        CHECK_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Asks each dependency one cheap question at once: the database `select 1`, Redis PING (its own
 * connection, which reconnects by itself), the media store's `check`. A change between up and down
 * is logged once, not on every poll of a load balancer.
 */
export type HealthService = ReturnType<typeof createHealthService>;

export function createHealthService({
  config,
  database,
  storage,
  log,
}: {
  config: Config;
  database: Database;
  storage: Storage;
  log: FastifyBaseLogger;
}) {
  const repo = createHealthRepo(database.db);
  const { kind } = database;
  const redis = config.redisUrl
    ? new (loadOnDemand('ioredis') as typeof import('ioredis')).Redis(config.redisUrl, {
        lazyConnect: true,
        connectTimeout: CHECK_TIMEOUT_MS,
        maxRetriesPerRequest: 1,
      })
    : undefined;
  // Failures surface on the PING; the event only needs a listener.
  redis?.on('error', () => {});
  const last = new Map<Dependency, 'up' | 'down'>();

  async function probe(name: Dependency, work: () => Promise<unknown>): Promise<'up' | 'down'> {
    const state = await withinTimeout(work()).then(
      () => 'up' as const,
      (err: unknown) => {
        if (last.get(name) !== 'down') log.warn({ err }, `health: ${name} is down`);
        return 'down' as const;
      },
    );
    if (state === 'up' && last.get(name) === 'down') log.info(`health: ${name} is up again`);
    last.set(name, state);
    return state;
  }

  return {
    async check(): Promise<HealthResponse> {
      const [database, redisState, storageState] = await Promise.all([
        probe('database', () => repo.ping()),
        redis ? probe('redis', () => redis.ping()) : ('not configured' as const),
        probe('storage', () => storage.check()),
      ]);
      const dependencies = { database, redis: redisState, storage: storageState };
      return {
        status: Object.values(dependencies).includes('down') ? 'unavailable' : 'ok',
        database: kind,
        dependencies,
        storage: config.s3 ? 's3' : 'local',
      };
    },
    async close() {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}
