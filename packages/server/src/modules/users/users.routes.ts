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
        description: 'A valid `timezone` from a signed-in client replaces the stored one.',
        querystring: getUserQuery,
        response: { 200: getUserResponse, 404: errorResponse },
      },
    },
    async (req) => {
      if (req.query.username !== undefined) return { user: await users.profile(req.query.username) };
      if (!req.user) return { user: null };
      return { user: await users.currentUser(req.user.id, req.query.timezone) };
    },
  );

  api.put(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own profile and settings (any subset of the fields)',
        description: '`triggers` replaces the whole selection: trainingAmount 0 = trained, 1 = in training.',
        body: updateUserRequest,
        response: { 200: updateUserResponse, 400: errorResponse, 401: errorResponse },
      },
    },
    async (req) => {
      const me = requireUser(req);
      return { user: await users.updateSettings(me.id, req.body) };
    },
  );
}
