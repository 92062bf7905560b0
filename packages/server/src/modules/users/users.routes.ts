import { errorResponse } from '@mesmer/shared/api/common';
import {
  getUserQuery,
  getUserResponse,
  updateUserRequest,
  updateUserResponse,
} from '@mesmer/shared/api/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { createUsersService } from './users.service.ts';

export async function usersRoutes(app: FastifyInstance, ctx: AppContext) {
  const users = createUsersService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user (null when signed out), or ?username= anyone’s public profile',
        description:
          'Reads only: `timezone` is accepted (the spec sends it) but never stored here; the time zone ' +
          'changes through sign-in, POST /api/session or PUT /api/user, at most once a day.',
        querystring: getUserQuery,
        response: { 200: getUserResponse, 404: errorResponse },
      },
    },
    async (req) => {
      if (req.query.username !== undefined) return { user: await users.profile(req.query.username) };
      if (!req.user) return { user: null };
      return { user: await users.self(req.user.id) };
    },
  );

  api.put(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own profile and settings (any subset of the fields)',
        description:
          '`triggers` replaces the whole selection: trainingAmount 0 = trained, 1 = in training. ' +
          'The time zone changes at most once a day: a different `timezone` within a day of the last change is 409 ' +
          'and nothing is saved.',
        body: updateUserRequest,
        response: { 200: updateUserResponse, 400: errorResponse, 401: errorResponse, 409: errorResponse },
      },
    },
    async (req) => {
      const me = requireUser(req);
      return { user: await users.updateSettings(me.id, req.body) };
    },
  );
}
