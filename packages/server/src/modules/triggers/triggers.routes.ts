import { triggersApi } from '@mesmer/shared/api/triggers';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { TriggersService } from './triggers.service.ts';

export async function triggersRoutes(
  app: FastifyInstance,
  { triggers: service, readCache }: { triggers: TriggersService; readCache: ReadCache },
) {
  registerRoute(app, triggersApi.get, async (req, reply) =>
    readCache.answer(req, reply, { reads: ['files'] }, async () => {
      const { uuid, name } = req.query;
      if (uuid || name) return { trigger: await service.findOne({ uuid, name }) };
      return { triggers: await service.list() };
    }),
  );
  registerRoute(app, triggersApi.create, async (req, reply) => {
    const trigger = await service.create(requireUser(req), req.body);
    return reply.code(201).send({ trigger });
  });
  registerRoute(app, triggersApi.requests, async (req) => {
    return { triggers: await service.requests(requireUser(req)) };
  });
  registerRoute(app, triggersApi.update, async (req) => ({
    trigger: await service.update(requireUser(req), req.body),
  }));
  registerRoute(app, triggersApi.delete, async (req, reply) => {
    await service.delete(requireUser(req), req.query.id);
    return reply.code(204).send(null);
  });
}
