import { triggersApi } from '@mesmer/shared/api/triggers';
import { canAddTrigger } from '@mesmer/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { Forbidden } from '../../platform/errors.ts';
import { createTriggersService } from './triggers.service.ts';

export async function triggersRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createTriggersService(ctx);
  registerRoute(app, triggersApi.get, async (req, reply) =>
    ctx.readCache.answer(req, reply, async () => {
      const { uuid, name } = req.query;
      if (uuid || name) return { trigger: await service.findOne({ uuid, name }) };
      return { triggers: await service.list() };
    }),
  );
  registerRoute(app, triggersApi.create, async (req, reply) => {
    const user = requireUser(req);
    if (!canAddTrigger(user)) throw new Forbidden();
    const trigger = await service.create(user, req.body);
    return reply.code(201).send({ trigger });
  });
  registerRoute(app, triggersApi.requests, async (req) => {
    const user = requireUser(req);
    if (!canAddTrigger(user)) throw new Forbidden();
    return { triggers: await service.requests(user) };
  });
  registerRoute(app, triggersApi.update, async (req) => ({
    trigger: await service.update(requireUser(req), req.body),
  }));
  registerRoute(app, triggersApi.delete, async (req, reply) => {
    await service.delete(requireUser(req), req.query.id);
    return reply.code(204).send(null);
  });
}
