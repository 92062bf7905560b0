import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { messages, threadMembers, threads, users } from '../../db/schema/index.ts';
import { hasBlocked } from '../../platform/access.repo.ts';

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

/** A member of a thread a message is sent to, and whether they block its sender. */
export type SendingMember = MemberRow & { blocksSender: boolean };

/** A message to store: what insertMessages takes. */
export interface NewMessage {
  threadId: number;
  senderId: number;
  text: string;
  at: Date;
  /** Members who blocked the sender: the message is withheld from them for good. */
  withheldFrom: number[];
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
  sql`(${viewerId}::int = any(${m.withheldFrom}) or ${hasBlocked(sql`${viewerId}::int`, m.senderId)})`;

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

/** The rows of a raw statement's result (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

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

    /**
     * For each (thread, sender) asked, in one statement: every member of the thread by user id, each
     * with whether they block the sender (access.users.blockersOf's rule, read here with the members
     * to spare each send a round trip); an empty list for a thread that does not exist.
     */
    async membersForSending(asked: { threadId: number; senderId: number }[]): Promise<SendingMember[][]> {
      if (asked.length === 0) return [];
      const result = await db.execute(sql`
        select a.n, m.thread_id, u.id, u.username, u.image_url,
          ${hasBlocked(sql`u.id`, sql`a.sender_id`)} as blocks_sender
        from unnest(${sql.param(asked.map((a) => a.threadId))}::integer[], ${sql.param(asked.map((a) => a.senderId))}::integer[])
          with ordinality as a(thread_id, sender_id, n)
        join ${threadMembers} m on m.thread_id = a.thread_id
        join ${users} u on u.id = m.user_id
        order by a.n, u.id`);
      const answers: SendingMember[][] = asked.map(() => []);
      for (const r of rowsOf<{
        n: number;
        thread_id: number;
        id: number;
        username: string;
        image_url: string | null;
        blocks_sender: boolean;
      }>(result)) {
        answers[Number(r.n) - 1]?.push({
          threadId: Number(r.thread_id),
          id: Number(r.id),
          username: r.username,
          imageUrl: r.image_url,
          blocksSender: r.blocks_sender,
        });
      }
      return answers;
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
     * Stores messages (each never shown to the members in its `withheldFrom`) with ids ascending in
     * the order given, makes each thread's last one its newest and each sender's last one their read
     * mark, in one statement (one commit without a transaction). Answers each one's id and time, in
     * the order given.
     */
    async insertMessages(rows: NewMessage[]): Promise<{ id: number; createdAt: Date }[]> {
      if (rows.length === 0) return [];
      // One array per column (a PostgreSQL array literal per row for withheld_from): the statement
      // stays the same text whatever the batch's size, and unnest keeps the order given.
      const column = <T>(pick: (r: NewMessage) => T) => sql.param(rows.map(pick));
      // The batch's threads are locked first, in id order: two processes' batches post to the same
      // threads (members sit on either), and updating their rows in the join's order deadlocked them
      // (PostgreSQL breaks a deadlock after a second, failing a batch). Each step reads the one before,
      // so the locks are taken before the insert, and the updates come after it.
      const result = await db.execute(sql`
        with locked as (
          select ${threads.id} from ${threads}
          where ${threads.id} = any(${column((r) => r.threadId)}::integer[])
          order by ${threads.id} for no key update
        ),
        m as (
          insert into ${messages} (thread_id, sender_id, message, created_at, withheld_from)
          select r.thread_id, r.sender_id, r.message, r.created_at, r.withheld_from::integer[]
          from unnest(
            ${column((r) => r.threadId)}::integer[],
            ${column((r) => r.senderId)}::integer[],
            ${column((r) => r.text)}::text[],
            ${column((r) => r.at.toISOString())}::timestamptz[],
            ${column((r) => `{${r.withheldFrom.join(',')}}`)}::text[]
          ) with ordinality as r(thread_id, sender_id, message, created_at, withheld_from, n)
          where (select count(*) from locked) >= 0
          order by r.n
          returning id, thread_id, sender_id, created_at
        ),
        t as (
          update ${threads} set most_recent_message = greatest(most_recent_message, newest.id)
          from (select thread_id, max(id) as id from m group by thread_id) newest
          where ${threads.id} = newest.thread_id
        ),
        r as (
          update ${threadMembers} set last_read = greatest(last_read, newest.id)
          from (select thread_id, sender_id, max(id) as id from m group by thread_id, sender_id) newest
          where ${threadMembers.threadId} = newest.thread_id and ${threadMembers.userId} = newest.sender_id
        )
        select id, thread_id, created_at from m order by id`);
      const stored = rowsOf<{ id: number; thread_id: number; created_at: string | Date }>(result);
      // Ids were drawn in the order given, so ascending ids are the rows in that order.
      if (stored.length !== rows.length || stored.some((s, i) => Number(s.thread_id) !== rows[i]?.threadId)) {
        throw new Error('insertMessages: the stored rows do not match the rows given');
      }
      return stored.map((s) => ({ id: Number(s.id), createdAt: new Date(s.created_at) }));
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
