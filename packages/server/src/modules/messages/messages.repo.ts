import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blocks, messages, threadMembers, threads, users } from '../../db/schema/index.ts';

export interface ThreadRow {
  id: number;
  name: string | null;
  mostRecentMessage: number;
  /** The viewer's. */
  lastRead: number;
}

export interface MemberRow {
  threadId: number;
  id: number;
  username: string;
  imageUrl: string | null;
}

export interface MessageRow {
  id: number;
  threadId: number;
  senderId: number | null;
  message: string;
  removedAt: Date | null;
  createdAt: Date;
  senderUsername: string | null;
  senderImageUrl: string | null;
}

/**
 * Whether message `m` is kept from `viewerId`: it was withheld from them when sent (they had
 * blocked the sender), or they block its sender now (decision 041).
 */
const hiddenFrom = (viewerId: number, m: { withheldFrom: SQL; senderId: SQL }) =>
  sql`(${viewerId}::int = any(${m.withheldFrom}) or exists (select 1 from ${blocks} b where b.blocker_id = ${viewerId}::int and b.blocked_id = ${m.senderId}))`;

/** The thread's newest message `viewerId` may see (0 = none): what their list orders by and compares with lastRead. */
const newestFor = (viewerId: number) =>
  sql<number>`coalesce((select m.id from ${messages} m where m.thread_id = ${threads.id} and not ${hiddenFrom(viewerId, { withheldFrom: sql`m.withheld_from`, senderId: sql`m.sender_id` })} order by m.id desc limit 1), 0)`.mapWith(
    Number,
  );

const threadColumns = (viewerId: number) => ({
  id: threads.id,
  name: threads.name,
  mostRecentMessage: newestFor(viewerId),
  lastRead: threadMembers.lastRead,
});

const messageColumns = {
  id: messages.id,
  threadId: messages.threadId,
  senderId: messages.senderId,
  message: messages.message,
  removedAt: messages.removedAt,
  createdAt: messages.createdAt,
  senderUsername: users.username,
  senderImageUrl: users.imageUrl,
};

export function createMessagesRepo(db: Db) {
  const memberOf = (userId: number) =>
    and(eq(threadMembers.threadId, threads.id), eq(threadMembers.userId, userId));

  return {
    /** The user's threads they have not hidden, newest activity first, with the total. */
    async listThreads(
      userId: number,
      opts: { limit: number; offset: number; isPrivate?: boolean },
    ): Promise<{ rows: ThreadRow[]; total: number }> {
      const where = and(
        isNull(threadMembers.hiddenAt),
        opts.isPrivate === undefined
          ? undefined
          : opts.isPrivate
            ? isNull(threads.name)
            : isNotNull(threads.name),
      );
      const rows = await db
        .select(threadColumns(userId))
        .from(threads)
        .innerJoin(threadMembers, memberOf(userId))
        .where(where)
        .orderBy(desc(newestFor(userId)), desc(threads.id))
        .limit(opts.limit)
        .offset(opts.offset);
      const [total] = await db
        .select({ n: count() })
        .from(threads)
        .innerJoin(threadMembers, memberOf(userId))
        .where(where);
      return { rows, total: total?.n ?? 0 };
    },

    /** The thread as its member `userId` sees it (hidden ones too), or null when not a member. */
    async findForMember(threadId: number, userId: number): Promise<ThreadRow | null> {
      const [row] = await db
        .select(threadColumns(userId))
        .from(threads)
        .innerJoin(threadMembers, memberOf(userId))
        .where(eq(threads.id, threadId));
      return row ?? null;
    },

    /** Every member of each thread, by thread then user id. */
    membersOf(threadIds: number[]): Promise<MemberRow[]> {
      if (threadIds.length === 0) return Promise.resolve([]);
      return db
        .select({
          threadId: threadMembers.threadId,
          id: users.id,
          username: users.username,
          imageUrl: users.imageUrl,
        })
        .from(threadMembers)
        .innerJoin(users, eq(users.id, threadMembers.userId))
        .where(inArray(threadMembers.threadId, threadIds))
        .orderBy(asc(threadMembers.threadId), asc(users.id));
    },

    /** Every member of the thread with the thread's name (null = two-person); empty when no such thread. */
    threadWithMembers(threadId: number): Promise<(MemberRow & { threadName: string | null })[]> {
      return db
        .select({
          threadId: threadMembers.threadId,
          id: users.id,
          username: users.username,
          imageUrl: users.imageUrl,
          threadName: threads.name,
        })
        .from(threadMembers)
        .innerJoin(threads, eq(threads.id, threadMembers.threadId))
        .innerJoin(users, eq(users.id, threadMembers.userId))
        .where(eq(threadMembers.threadId, threadId))
        .orderBy(asc(users.id));
    },

    async existingUsers(ids: number[]): Promise<{ id: number; username: string }[]> {
      if (ids.length === 0) return [];
      return db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
    },

    /** The two-person thread (no name) of exactly `a` and `b`, if any. */
    async findTwoPerson(a: number, b: number): Promise<number | null> {
      const [row] = await db
        .select({ id: threads.id })
        .from(threads)
        .innerJoin(threadMembers, eq(threadMembers.threadId, threads.id))
        .where(isNull(threads.name))
        .groupBy(threads.id)
        .having(
          sql`count(*) = 2 and bool_and(${threadMembers.userId} in (${a}, ${b})) and count(distinct ${threadMembers.userId}) = 2`,
        )
        .orderBy(asc(threads.id))
        .limit(1);
      return row?.id ?? null;
    },

    /** Shows a hidden thread again in `userId`'s list. */
    async unhide(threadId: number, userId: number): Promise<void> {
      await db
        .update(threadMembers)
        .set({ hiddenAt: null })
        .where(and(eq(threadMembers.threadId, threadId), eq(threadMembers.userId, userId)));
    },

    /** Inserts a thread and its members; call inside a transaction. */
    async insertThread(name: string | null, creatorId: number, memberIds: number[]): Promise<number> {
      const [row] = await db.insert(threads).values({ name, creatorId }).returning({ id: threads.id });
      if (!row) throw new Error('insertThread: no row');
      await db.insert(threadMembers).values(memberIds.map((userId) => ({ threadId: row.id, userId })));
      return row.id;
    },

    /**
     * Stores a message (never shown to the members in `withheldFrom`), makes it the thread's newest
     * and the sender's read mark, in one statement (atomic without a transaction). Answers its id and time.
     */
    async insertMessage(
      threadId: number,
      senderId: number,
      text: string,
      at: Date,
      withheldFrom: number[],
    ): Promise<{ id: number; createdAt: Date }> {
      const withheld = sql`array[${sql.join(
        withheldFrom.map((id) => sql`${id}::int`),
        sql`, `,
      )}]::integer[]`;
      const result = await db.execute<{ id: number; created_at: string | Date }>(sql`
        with m as (
          insert into ${messages} (thread_id, sender_id, message, created_at, withheld_from)
          values (${threadId}, ${senderId}, ${text}, ${at.toISOString()}::timestamptz, ${withheld})
          returning id, created_at
        ),
        t as (
          update ${threads} set most_recent_message = greatest(most_recent_message, (select id from m))
          where id = ${threadId}
        ),
        r as (
          update ${threadMembers} set last_read = greatest(last_read, (select id from m))
          where thread_id = ${threadId} and user_id = ${senderId}
        )
        select id, created_at from m`);
      const row = (result as unknown as { rows: { id: number; created_at: string | Date }[] }).rows[0];
      if (!row) throw new Error('insertMessage: no row');
      return { id: Number(row.id), createdAt: new Date(row.created_at) };
    },

    /**
     * Up to `limit` messages of the thread older than `before` (all when absent) that `viewerId` may
     * see, oldest first.
     */
    async history(
      threadId: number,
      viewerId: number,
      before: number | undefined,
      limit: number,
    ): Promise<MessageRow[]> {
      const rows = await db
        .select(messageColumns)
        .from(messages)
        .leftJoin(users, eq(users.id, messages.senderId))
        .where(
          and(
            eq(messages.threadId, threadId),
            before === undefined ? undefined : lt(messages.id, before),
            sql`not ${hiddenFrom(viewerId, { withheldFrom: sql`${messages.withheldFrom}`, senderId: sql`${messages.senderId}` })}`,
          ),
        )
        .orderBy(desc(messages.id))
        .limit(limit);
      return rows.reverse();
    },

    /** Moves the member's read mark up to `messageId`, never backwards nor past the newest message. */
    async markRead(threadId: number, userId: number, messageId: number): Promise<void> {
      await db
        .update(threadMembers)
        .set({
          lastRead: sql`greatest(${threadMembers.lastRead}, least(${messageId}::int, (select ${threads.mostRecentMessage} from ${threads} where ${threads.id} = ${threadId})))`,
        })
        .where(and(eq(threadMembers.threadId, threadId), eq(threadMembers.userId, userId)));
    },
  };
}
