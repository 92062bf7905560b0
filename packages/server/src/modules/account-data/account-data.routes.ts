import { accountDataApi } from '@mesmer/shared/api/account-data';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { clearSessionCookies } from '../../platform/session-cookies.ts';
import { createAccountDataService } from './account-data.service.ts';

export async function accountDataRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createAccountDataService(ctx);

  registerRoute(app, accountDataApi.export, async (req, reply) => {
    const user = requireUser(req);
    const data = await service.exportOf(user);
    reply.header('content-disposition', `attachment; filename="mesmer-${user.username}.json"`);
    return data;
  });

  registerRoute(app, accountDataApi.delete, async (req, reply) => {
    await service.deleteAccount(requireUser(req), req.body);
    clearSessionCookies(reply, ctx.config);
    return reply.code(204).send(null);
  });
}
