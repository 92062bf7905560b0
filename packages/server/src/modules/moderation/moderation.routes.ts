import { moderationApi } from '@mesmer/shared/api/moderation';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ModerationService } from './moderation.service.ts';

export async function moderationRoutes(app: FastifyInstance, service: ModerationService) {
  registerRoute(app, moderationApi.block, async (req) => service.block(requireUser(req), req.body));
  registerRoute(app, moderationApi.unblock, async (req, reply) => {
    await service.unblock(requireUser(req), req.query.userId);
    return reply.code(204).send(null);
  });
  registerRoute(app, moderationApi.blocks, async (req) => service.blocks(requireUser(req)));
  registerRoute(app, moderationApi.report, async (req) => service.report(requireUser(req), req.body));
  registerRoute(app, moderationApi.queue, async (req) => service.queue(req.user, req.query));
  registerRoute(app, moderationApi.act, async (req) => service.act(req.user, req.params.id, req.body));
  registerRoute(app, moderationApi.log, async (req) => service.log(req.user, req.query));
}
