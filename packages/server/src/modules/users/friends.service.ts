import type { Friend, FriendsList } from '@mesmer/shared/api/users';
import type { Db } from '../../db/client.ts';
import type { Access } from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { Clock } from '../../platform/clock.ts';
import { BadRequest, NotFound } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { createFriendsRepo, type FriendRow } from './friends.repo.ts';
import { createUsersRepo } from './users.repo.ts';

const toFriend = (row: FriendRow): Friend => ({ id: row.id, username: row.username, imageURL: row.imageUrl });

/** Friends and friend requests: one row per pair, a request until the other side accepts. */
export type FriendsService = ReturnType<typeof createFriendsService>;

export function createFriendsService({
  db,
  clock,
  limiter,
  access,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  access: Access;
}) {
  const repo = createFriendsRepo(db);
  const users = createUsersRepo(db);

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
      if (!(await users.findById(friendId))) throw new NotFound('User not found.');
      await access.users.requireNotBlocked(userId, [friendId], 'You cannot add this user.');
      const existing = await repo.between(userId, friendId);
      if (!existing) {
        await limiter.consume(ACCOUNT_LIMITS.friendRequests, String(userId));
        await repo.request(userId, friendId);
      } else if (!existing.acceptedAt && existing.userId === friendId) {
        await repo.accept(friendId, userId, clock.now());
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
