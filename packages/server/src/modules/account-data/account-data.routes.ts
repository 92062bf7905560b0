import { accountDataApi } from '@mesmer/shared/api/account-data';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { clearSessionCookies } from '../../platform/session-cookies.ts';
import type { AccountDataService } from './account-data.service.ts';

export async function accountDataRoutes(
  app: FastifyInstance,
  { accountData: service, config }: { accountData: AccountDataService; config: Config },
) {
  registerRoute(app, accountDataApi.export, async (req, reply) => {
    const user = requireUser(req);
    const data = await service.exportOf(user);
    reply.header('content-disposition', `attachment; filename="mesmer-${user.username}.json"`);
    return data;
  });

  registerRoute(app, accountDataApi.delete, async (req, reply) => {
    await service.deleteAccount(requireUser(req), req.body);
    clearSessionCookies(reply, config);
    return reply.code(204).send(null);
  });
}
