import { usersApi } from '@mesmer/shared/api/users';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { FriendsService } from './friends.service.ts';

export async function friendsRoutes(app: FastifyInstance, friends: FriendsService) {
  registerRoute(app, usersApi.friends, async (req) => friends.list(requireUser(req).id));
  registerRoute(app, usersApi.addFriend, async (req) => friends.add(requireUser(req).id, req.body.friendId));
  registerRoute(app, usersApi.removeFriend, async (req) =>
    friends.remove(requireUser(req).id, req.query.friendId),
  );
}
