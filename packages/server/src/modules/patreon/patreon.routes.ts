import { patreonApi } from '@mesmer/shared/api/patreon';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { routeRateLimit } from '../../platform/rate-limit.ts';
import { PAID_PERIOD_SWEEP_MS, type PatreonService } from './patreon.service.ts';

/** A webhook body is small (one member event); Patreon's are a few kilobytes. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

export async function patreonRoutes(
  app: FastifyInstance,
  { patreon: service, config }: { patreon: PatreonService; config: Config },
) {
  if (config.patreon) {
    // A cancelled patron's access ends with their paid period, whether or not anyone asks.
    const timer = setInterval(() => {
      service.endPaidPeriods().catch((err: unknown) => app.log.error({ err }, 'ending paid periods failed'));
    }, PAID_PERIOD_SWEEP_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  // Each of these calls Patreon: a few a minute are plenty for a person.
  const callsPatreon = {
    config: { rateLimit: routeRateLimit(config, { max: 20, timeWindow: '1 minute' }) },
  };

  registerRoute(app, patreonApi.authorize, async (req) => ({
    url: await service.authorize(requireUser(req), req.sessionToken, req.query.creator ?? false),
  }));

  registerRoute(
    app,
    patreonApi.token,
    async (req) => service.link(requireUser(req), req.sessionToken, req.body),
    callsPatreon,
  );

  registerRoute(app, patreonApi.refresh, async (req) => service.refresh(requireUser(req)), callsPatreon);

  registerRoute(app, patreonApi.disconnect, async (req, reply) => {
    await service.disconnect(requireUser(req));
    return reply.code(204).send(null);
  });

  registerRoute(
    app,
    patreonApi.importTiers,
    async (req) => service.importTiers(requireUser(req), req.body.username),
    callsPatreon,
  );

  // The signature covers the body byte for byte: in its own scope, every body is kept raw.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    registerRoute(raw, patreonApi.webhook, async (req, reply) => {
      const signature = req.headers['x-patreon-signature'];
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await service.webhook(body, Array.isArray(signature) ? signature[0] : signature);
      return reply.code(204).send(null);
    });
  });
}
