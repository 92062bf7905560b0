import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import { AppError } from './errors.ts';
import { loadOnDemand } from './load-on-demand.ts';

/** 'Too many attempts. Please wait 15 minutes and try again.': how long, in words a person reads. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const hours = Math.ceil(retryAfterSeconds / 3600);
  const wait =
    minutes <= 1
      ? 'a minute'
      : minutes < 60
        ? `${minutes} minutes`
        : hours === 1
          ? 'an hour'
          : `${hours} hours`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}

export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, tooManyAttemptsMessage(retryAfterSeconds));
  }
}

/** At most `max` counted events per `windowMs` for each key; `name` keeps the buckets apart. */
export interface Limit {
  name: string;
  max: number;
  windowMs: number;
}

/** A key's count in its current window and the time left until the window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

/**
 * Fixed-window counters. Keys reach a store already hashed (see `createRateLimiter`),
 * so a client's string never sizes what is kept.
 */
export interface RateLimitStore {
  /** Adds one to the key's count, opening a window of `windowMs` when none is open. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Takes back one count of an open window (an attempt that turned out fine). */
  undo(key: string): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this process's memory. An entry is forgotten when its window ends (swept
 * at most once a minute, and skipped on read); when `maxEntries` are open the oldest
 * window is dropped, so memory stays bounded even under a flood of new keys.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  get size() {
    return this.entries.size;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      // Deleted and set again so the Map's order stays the order windows opened in.
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      entry = { count: 0, resetAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetInMs: entry.resetAt - now };
  }

  async undo(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  private sweep(now: number) {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }
}

// One round trip; the expiry is set with the first count of a window (and repaired if missing).
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

const UNDO_SCRIPT = `
if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then
  redis.call('DECR', KEYS[1])
end
return 0`;

/** Counters in Redis, shared by every server process; Redis expires them with their window. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'mesmer-rate-limit:',
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, windowMs)) as [
      number,
      number,
    ];
    return { count, resetInMs: ttl };
  }

  async undo(key: string) {
    await this.redis.eval(UNDO_SCRIPT, 1, this.prefix + key);
  }
}

/**
 * Uses `primary` (Redis) and, while it fails, `fallback` (memory): a Redis outage then
 * limits per process instead of not at all, and does not lock everybody out either.
 */
function withFallback(
  primary: RateLimitStore,
  fallback: RateLimitStore,
  log: FastifyBaseLogger,
): RateLimitStore {
  let warnedAt = 0;
  const warn = (err: unknown) => {
    if (Date.now() - warnedAt < SWEEP_EVERY_MS) return;
    warnedAt = Date.now();
    log.warn({ err }, 'rate-limit store (Redis) unavailable; counting in this process meanwhile');
  };
  return {
    hit: (key, windowMs) =>
      primary.hit(key, windowMs).catch((err) => {
        warn(err);
        return fallback.hit(key, windowMs);
      }),
    undo: (key) =>
      primary.undo(key).catch((err) => {
        warn(err);
        return fallback.undo(key);
      }),
  };
}

/** A fixed-size stand-in for any key: what a client sends never grows the store or Redis. */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

export interface RateLimiter {
  /** Counts one event and throws TooManyAttempts once the key went over `max` in the window. */
  consume(limit: Limit, key: string): Promise<void>;
  /** Counts one event; answers whether it is still within the limit. */
  hit(limit: Limit, key: string): Promise<boolean>;
  /** Takes back one event counted by `consume` or `hit` in the current window. */
  undo(limit: Limit, key: string): Promise<void>;
  /** Resolves once Redis is connected (at most 2 s; until then counts stay in memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const tooMany = (resetInMs: number) => new TooManyAttempts(Math.max(1, Math.ceil(resetInMs / 1000)));

/**
 * The limiter every limit goes through. With REDIS_URL the counts live in Redis so
 * all server processes share them; otherwise in memory.
 * With RATE_LIMIT=false nothing is counted or limited.
 */
export function createRateLimiter(
  config: Config,
  opts: { clock: Clock; log: FastifyBaseLogger },
): RateLimiter {
  const memory = new MemoryRateLimitStore(opts.clock);
  // Without the offline queue a command fails at once while Redis is away (and falls back),
  // instead of holding the request through reconnection attempts.
  const redis =
    config.rateLimit && config.redisUrl
      ? new (loadOnDemand('ioredis') as typeof import('ioredis')).Redis(config.redisUrl, {
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          enableOfflineQueue: false,
        })
      : undefined;
  // Connection errors surface on each command (and fall back); the event only needs a listener.
  redis?.on('error', () => {});
  const store = redis ? withFallback(new RedisRateLimitStore(redis), memory, opts.log) : memory;
  const bucket = (limit: Limit, key: string) => `${limit.name}:${digest(key)}`;

  return {
    async consume(limit, key) {
      if (!config.rateLimit) return;
      const { count, resetInMs } = await store.hit(bucket(limit, key), limit.windowMs);
      if (count > limit.max) throw tooMany(resetInMs);
    },
    async hit(limit, key) {
      if (!config.rateLimit) return true;
      const { count } = await store.hit(bucket(limit, key), limit.windowMs);
      return count <= limit.max;
    },
    async undo(limit, key) {
      if (!config.rateLimit) return;
      await store.undo(bucket(limit, key));
    },
    async ready() {
      if (!redis || redis.status === 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => redis.once('ready', resolve)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, 2000);
        }),
      ]);
      clearTimeout(timer);
    },
    async close() {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

/** The client as rate limits see it: its IP, or its /64 network for IPv6 (one machine usually holds a whole /64). */
export function clientKey(req: FastifyRequest): string {
  const ip = req.ip.startsWith('::ffff:') && isIPv4(req.ip.slice(7)) ? req.ip.slice(7) : req.ip;
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.split('::');
  const groups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const full = [...groups, ...Array(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A route's per-client limit, as `config.rateLimit` (see `routeRateLimit`). */
export interface RouteRateLimit {
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteRateLimit | false;
  }
}

const UNIT_MS = { second: 1000, minute: 60_000, hour: 3_600_000 } as const;

/**
 * A route's `config.rateLimit`: at most `max` requests per `timeWindow` (e.g. '10 minutes')
 * from each client (`clientKey`). False when RATE_LIMIT=false.
 */
export function routeRateLimit(
  config: Config,
  limit: { max: number; timeWindow: string },
): RouteRateLimit | false {
  const match = /^(\d+) (second|minute|hour)s?$/.exec(limit.timeWindow);
  if (!match) throw new Error(`routeRateLimit: cannot read the time window "${limit.timeWindow}"`);
  if (!config.rateLimit) return false;
  return { max: limit.max, windowMs: Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] };
}

/**
 * Applies every route's `config.rateLimit` before the body is read, so a limited client
 * costs neither parsing nor database work. Register before the routes.
 */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter) {
  app.addHook('onRoute', (route) => {
    const routeLimit = route.config?.rateLimit;
    if (!routeLimit) return;
    const limit: Limit = { name: `route ${String(route.method)} ${route.url}`, ...routeLimit };
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      async (req: FastifyRequest) => {
        await limiter.consume(limit, clientKey(req));
      },
      ...existing,
    ];
  });
  app.addHook('onReady', () => limiter.ready());
  app.addHook('onClose', () => limiter.close());
}
