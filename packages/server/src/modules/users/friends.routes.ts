import { usersApi } from '@mesmer/shared/api/users';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createFriendsService } from './friends.service.ts';

export async function friendsRoutes(app: FastifyInstance, ctx: AppContext) {
  const friends = createFriendsService(ctx);
  registerRoute(app, usersApi.friends, async (req) => friends.list(requireUser(req).id));
  registerRoute(app, usersApi.addFriend, async (req) => friends.add(requireUser(req).id, req.body.friendId));
  registerRoute(app, usersApi.removeFriend, async (req) =>
    friends.remove(requireUser(req).id, req.query.friendId),
  );
}
