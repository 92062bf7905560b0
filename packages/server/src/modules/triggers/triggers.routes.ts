import { errorResponse } from '@mesmer/shared/api/common';
import {
  createTriggerRequest,
  getTriggersQuery,
  listTriggersResponse,
  oneTriggerResponse,
} from '@mesmer/shared/api/triggers';
import { canAddTrigger } from '@mesmer/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { Forbidden } from '../../platform/errors.ts';
import { createTriggersService } from './triggers.service.ts';

export async function triggersRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createTriggersService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/triggers',
    {
      schema: {
        tags: ['triggers'],
        description:
          'Every trigger sorted by name; with `uuid` or `name` one trigger. `name` follows the detail route: ' +
          'spaces become underscores and case is ignored (`sleep_now` finds "Sleep Now"). 404 "Trigger not found."',
        querystring: getTriggersQuery,
        response: { 200: z.union([listTriggersResponse, oneTriggerResponse]), 404: errorResponse },
      },
    },
    async (req, reply) =>
      ctx.readCache.answer(req, reply, async () => {
        const { uuid, name } = req.query;
        if (uuid || name) return { trigger: await service.findOne({ uuid, name }) };
        return { triggers: await service.list() };
      }),
  );
  api.post(
    '/triggers',
    {
      schema: {
        tags: ['triggers'],
        description:
          'Adds a trigger (needs CREATE_TRIGGERS or REQUEST_TRIGGERS). The description is cut to 250 characters; ' +
          'a name already used (ignoring case) answers 409.',
        body: createTriggerRequest,
        response: { 201: oneTriggerResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      if (!canAddTrigger(user)) throw new Forbidden();
      const trigger = await service.create(user, req.body);
      return reply.code(201).send({ trigger });
    },
  );
}
