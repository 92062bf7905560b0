import fastifyRateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.';

/**
 * Registers @fastify/rate-limit with no global limit; routes opt in through
 * `routeRateLimit`. With REDIS_URL the counts live in Redis, so every server
 * process shares them; otherwise in this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis =
    config.rateLimit && config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 })
      : undefined;
  if (redis) {
    redis.on('error', (err) => app.log.warn({ err }, 'rate-limit store (Redis) unavailable'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    redis,
    nameSpace: 'mesmer-rate-limit-',
    // A Redis outage should not lock everybody out of logging in.
    skipOnError: true,
    errorResponseBuilder: (_req, context) => new AppError(context.statusCode, TOO_MANY_ATTEMPTS),
  });
}

/** The client as rate limits see it: its IP, or its /64 network for IPv6 (one machine usually holds a whole /64). */
export function clientKey(req: FastifyRequest): string {
  return normalizeIP(req.ip);
}

/**
 * A route's `config.rateLimit`: at most `max` requests per `timeWindow` for each
 * key (`clientKey` unless `key` says otherwise). False when RATE_LIMIT=false.
 * Runs after the body is parsed so `key` can use it.
 */
export function routeRateLimit(
  config: Config,
  limit: { max: number; timeWindow: string; key?: (req: FastifyRequest) => string },
): RateLimitOptions | false {
  if (!config.rateLimit) return false;
  return {
    max: limit.max,
    timeWindow: limit.timeWindow,
    hook: 'preValidation',
    keyGenerator: limit.key ?? clientKey,
  };
}
