import { lovenseApi } from '@mesmer/shared/api/lovense';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { LovenseService } from './lovense.service.ts';

export async function lovenseRoutes(app: FastifyInstance, service: LovenseService) {
  registerRoute(app, lovenseApi.qr, async (req) => service.qr(requireUser(req)));

  // Called by Lovense's servers for the user's app: no session, the body carries our secret.
  registerRoute(app, lovenseApi.callback, async (req) => {
    await service.callback(req.body);
    return { ok: true as const };
  });

  registerRoute(app, lovenseApi.toys, async (req) => service.toys(requireUser(req)));

  registerRoute(app, lovenseApi.command, async (req, reply) => {
    await service.command(requireUser(req), req.body);
    return reply.code(204).send(null);
  });

  registerRoute(app, lovenseApi.test, async (req, reply) => {
    await service.test(requireUser(req));
    return reply.code(204).send(null);
  });

  registerRoute(app, lovenseApi.disconnect, async (req, reply) => {
    await service.disconnect(requireUser(req));
    return reply.code(204).send(null);
  });
}
