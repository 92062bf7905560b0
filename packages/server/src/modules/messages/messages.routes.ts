import { messagesApi } from '@mesmer/shared/api/messages';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { MessagesService } from './messages.service.ts';

export async function messagesRoutes(app: FastifyInstance, service: MessagesService) {
  registerRoute(app, messagesApi.threads, async (req) => service.threads(requireUser(req), req.query));
  registerRoute(app, messagesApi.thread, async (req) => service.thread(requireUser(req), req.query.id));
  registerRoute(app, messagesApi.createThread, async (req) => ({
    id: await service.createThread(requireUser(req), req.body),
  }));
  registerRoute(app, messagesApi.send, async (req) => {
    const message = await service.send(requireUser(req), req.body);
    return { success: true as const, id: message.id };
  });
  registerRoute(app, messagesApi.history, async (req) => service.history(requireUser(req), req.query));
  registerRoute(app, messagesApi.markRead, async (req, reply) => {
    await service.markRead(requireUser(req), req.body);
    return reply.code(204).send(null);
  });
}
