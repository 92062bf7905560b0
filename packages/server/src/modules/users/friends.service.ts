import type { Friend, FriendsList } from '@mesmer/shared/api/users';
import { createAccess } from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { AppContext } from '../../platform/context.ts';
import { BadRequest, Forbidden, NotFound } from '../../platform/errors.ts';
import { createFriendsRepo, type FriendRow } from './friends.repo.ts';
import { createUsersRepo } from './users.repo.ts';

const toFriend = (row: FriendRow): Friend => ({ id: row.id, username: row.username, imageURL: row.imageUrl });

/** Friends and friend requests: one row per pair, a request until the other side accepts. */
export function createFriendsService(ctx: AppContext) {
  const repo = createFriendsRepo(ctx.db);
  const access = createAccess(ctx.db);

  async function list(userId: number): Promise<FriendsList> {
    const rows = await repo.listOf(userId);
    return {
      friends: rows.filter((r) => r.accepted).map(toFriend),
      incoming: rows.filter((r) => !r.accepted && !r.asked).map(toFriend),
      outgoing: rows.filter((r) => !r.accepted && r.asked).map(toFriend),
    };
  }

  return {
    list,

    /** Asks `friendId`, or accepts when they already asked; asking twice changes nothing. */
    async add(userId: number, friendId: number): Promise<FriendsList> {
      if (friendId === userId) throw new BadRequest('friendId', 'You cannot add yourself.');
      if (!(await createUsersRepo(ctx.db).findById(friendId))) throw new NotFound('User not found.');
      if ((await access.users.blockersOf(userId, [friendId])).has(friendId)) {
        throw new Forbidden('You cannot add this user.');
      }
      const existing = await repo.between(userId, friendId);
      if (!existing) {
        await ctx.limiter.consume(ACCOUNT_LIMITS.friendRequests, String(userId));
        await repo.request(userId, friendId);
      } else if (!existing.acceptedAt && existing.userId === friendId) {
        await repo.accept(friendId, userId, ctx.clock.now());
      }
      return list(userId);
    },

    /** Cancels your request, declines theirs or ends the friendship. */
    async remove(userId: number, friendId: number): Promise<FriendsList> {
      await repo.remove(userId, friendId);
      return list(userId);
    },
  };
}
