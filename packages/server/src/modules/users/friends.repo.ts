import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blocks, friendships, users } from '../../db/schema/index.ts';

export interface FriendRow {
  id: number;
  username: string;
  imageUrl: string | null;
  /** True when the viewer sent the request (or, once accepted, first asked). */
  asked: boolean;
  accepted: boolean;
}

const between = (a: number, b: number) =>
  or(
    and(eq(friendships.userId, a), eq(friendships.friendId, b)),
    and(eq(friendships.userId, b), eq(friendships.friendId, a)),
  );

export function createFriendsRepo(db: Db) {
  return {
    /**
     * Every friendship and request of the user, with the other person, by username; a request from
     * someone the user blocked is left out (a block means no contact, decision 041).
     */
    async listOf(userId: number): Promise<FriendRow[]> {
      return db
        .select({
          id: users.id,
          username: users.username,
          imageUrl: users.imageUrl,
          asked: sql<boolean>`${friendships.userId} = ${userId}`,
          accepted: sql<boolean>`${friendships.acceptedAt} is not null`,
        })
        .from(friendships)
        .innerJoin(
          users,
          sql`${users.id} = case when ${friendships.userId} = ${userId} then ${friendships.friendId} else ${friendships.userId} end`,
        )
        .where(
          and(
            or(eq(friendships.userId, userId), eq(friendships.friendId, userId)),
            sql`not (${friendships.acceptedAt} is null and ${friendships.friendId} = ${userId} and exists (select 1 from ${blocks} b where b.blocker_id = ${userId} and b.blocked_id = ${friendships.userId}))`,
          ),
        )
        .orderBy(asc(sql`lower(${users.username})`), asc(users.id));
    },

    /** The row joining the two, whichever asked. */
    async between(a: number, b: number) {
      const [row] = await db.select().from(friendships).where(between(a, b));
      return row ?? null;
    },

    /** A request from `userId` to `friendId`; nothing when one exists. */
    async request(userId: number, friendId: number) {
      await db.insert(friendships).values({ userId, friendId }).onConflictDoNothing();
    },

    /** Accepts the request `fromId` sent to `toId`. */
    async accept(fromId: number, toId: number, at: Date) {
      await db
        .update(friendships)
        .set({ acceptedAt: at })
        .where(and(eq(friendships.userId, fromId), eq(friendships.friendId, toId)));
    },

    async remove(a: number, b: number) {
      await db.delete(friendships).where(between(a, b));
    },
  };
}
