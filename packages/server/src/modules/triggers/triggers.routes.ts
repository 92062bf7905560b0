import { errorResponse } from '@mesmer/shared/api/common';
import {
  createTriggerRequest,
  deleteTriggerQuery,
  getTriggersQuery,
  listTriggersResponse,
  oneTriggerResponse,
  triggerRequestsResponse,
  updateTriggerRequest,
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
          'Every published trigger sorted by name (pending requests are left out); with `uuid` or `name` one trigger. `name` follows the detail route: ' +
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
          'Adds a trigger. With CREATE_TRIGGERS it is published at once; with only REQUEST_TRIGGERS it is stored ' +
          'as a request (`pending: true`): not listed and not usable until staff approve it (PUT /api/triggers). ' +
          'The description is cut to 250 characters; a name already used (ignoring case, requests included) answers 409.',
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

  api.get(
    '/triggers/requests',
    {
      schema: {
        tags: ['triggers'],
        description:
          "Pending trigger requests, oldest first: every one for staff (CREATE_TRIGGERS), the caller's own for " +
          'holders of REQUEST_TRIGGERS; 403 for anyone else.',
        response: { 200: triggerRequestsResponse, 401: errorResponse, 403: errorResponse },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!canAddTrigger(user)) throw new Forbidden();
      return { triggers: await service.requests(user) };
    },
  );
  api.put(
    '/triggers',
    {
      schema: {
        tags: ['triggers'],
        description:
          'Staff only (CREATE_TRIGGERS): renames and/or redescribes a trigger, published or pending, and with ' +
          '`approve: true` publishes a request. 404 "Trigger not found.", 409 for a name already used.',
        body: updateTriggerRequest,
        response: {
          200: oneTriggerResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (req) => ({ trigger: await service.update(requireUser(req), req.body) }),
  );
  api.delete(
    '/trigger',
    {
      schema: {
        tags: ['triggers'],
        description:
          'Staff only (CREATE_TRIGGERS): deletes a trigger or rejects a request; its links to files and users go too.',
        querystring: deleteTriggerQuery,
        response: { 204: z.null(), 401: errorResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (req, reply) => {
      await service.delete(requireUser(req), req.query.id);
      return reply.code(204).send(null);
    },
  );
}
