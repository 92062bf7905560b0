import { usersApi } from '@mesmer/shared/api/users';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { PatreonService } from '../patreon/patreon.service.ts';
import { avatarRoutes } from './avatar.routes.ts';
import type { AvatarService } from './avatar.service.ts';
import { friendsRoutes } from './friends.routes.ts';
import type { FriendsService } from './friends.service.ts';
import type { UsersService } from './users.service.ts';

export async function usersRoutes(
  app: FastifyInstance,
  {
    users,
    friends,
    avatars,
    patreon,
  }: { users: UsersService; friends: FriendsService; avatars: AvatarService; patreon: PatreonService },
) {
  registerRoute(app, usersApi.get, async (req) => {
    if (req.query.username !== undefined) return { user: await users.profile(req.query.username) };
    if (!req.user) return { user: null };
    // Memberships not read from Patreon for a day are read again first (never fails the call).
    await patreon.refreshIfStale(req.user.id);
    return { user: await users.self(req.user.id) };
  });

  registerRoute(app, usersApi.update, async (req) => {
    const me = requireUser(req);
    return { user: await users.updateSettings(me.id, req.body) };
  });

  registerRoute(app, usersApi.grantRole, async (req) => ({
    roles: await users.grantRole(req.user, req.params.id, req.body.role),
  }));

  registerRoute(app, usersApi.revokeRole, async (req) => ({
    roles: await users.revokeRole(req.user, req.params.id, req.query.role),
  }));

  await friendsRoutes(app, friends);
  await avatarRoutes(app, avatars);
}
