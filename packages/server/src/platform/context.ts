import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Generations } from '../db/library-generation.ts';
import type { Clock } from './clock.ts';
import type { Mailer } from './mail.ts';
import type { Metrics } from './metrics.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { ReadCache } from './read-cache.ts';

/**
 * The platform parts of an app: configuration, the database and the outside world. The composition
 * root (modules/index.ts) hands each service the parts it needs, by name; no service takes all of it.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** Counts attempts per client, account or address (login, sign-up, reset mails). */
  limiter: RateLimiter;
  /**
   * The generations kept data depends on (db/library-generation.ts), read once for concurrent
   * requests: the read cache and the kept sessions judge by them.
   */
  readGenerations: () => Promise<Generations>;
  /** What the server keeps of the library: answers of its read calls, lists' first rows, rows by id. */
  readCache: ReadCache;
  /** Prometheus counters the modules add to (served at /metrics, platform/metrics.ts). */
  metrics: Metrics;
}
