import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, executePrepared } from '../../db/client.ts';
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

/** A member of a thread a message is sent to. */
export type SendingMember = Omit<MemberRow, 'threadId'>;

/** A message to send: what sendMessages takes. */
export interface NewMessage {
  threadId: number;
  senderId: number;
  text: string;
  at: Date;
}

/** What became of a message sent: its thread's members as its checks read them, and the stored message (null: refused). */
export interface SendOutcome {
  members: SendingMember[];
  /** `withheldFrom`: the members who block the sender, from whom it is withheld for good. */
  stored: { id: number; createdAt: Date; withheldFrom: number[] } | null;
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
     * Sends a batch of messages in one statement (one commit without a transaction), each checked as
     * if sent alone: stored when its sender is a member of its thread and some other member, if there
     * are any, does not block the sender (access.users.blockersOf's rule, read here); withheld for
     * good from the members who do. Stored ones get ids ascending in the order given, and each one's
     * thread its newest message and its sender's read mark. Answers, in the order given, the members
     * each one's checks read (none: no such thread, or not the sender's) and the stored message,
     * null when refused.
     */
    async sendMessages(rows: NewMessage[]): Promise<SendOutcome[]> {
      if (rows.length === 0) return [];
      // One array per column: the statement stays the same text whatever the batch's size, and
      // unnest keeps the order given.
      const column = <T>(pick: (r: NewMessage) => T) => sql.param(rows.map(pick));
      // The stored messages' threads are locked first, in id order: two processes' batches post to
      // the same threads (members sit on either), and updating their rows in the join's order
      // deadlocked them (PostgreSQL breaks a deadlock after a second, failing a batch). Each step
      // reads the one before, so the locks are taken before the insert, and the updates come after it.
      const result = await executePrepared(
        db,
        'send_messages',
        sql`
        with a as (
          select * from unnest(
            ${column((r) => r.threadId)}::integer[],
            ${column((r) => r.senderId)}::integer[],
            ${column((r) => r.text)}::text[],
            ${column((r) => r.at.toISOString())}::timestamptz[]
          ) with ordinality as a(thread_id, sender_id, message, created_at, n)
        ),
        members as (
          select a.n, u.id, u.username, u.image_url, u.id = a.sender_id as is_sender,
            ${hasBlocked(sql`u.id`, sql`a.sender_id`)} as blocks_sender
          from a
          join ${threadMembers} tm on tm.thread_id = a.thread_id
          join ${users} u on u.id = tm.user_id
        ),
        allowed as (
          select a.n, a.thread_id, a.sender_id, a.message, a.created_at,
            coalesce(array_agg(mb.id order by mb.id) filter (where mb.blocks_sender and not mb.is_sender), '{}') as withheld_from
          from a join members mb on mb.n = a.n
          group by a.n, a.thread_id, a.sender_id, a.message, a.created_at
          having bool_or(mb.is_sender)
            and (count(*) filter (where not mb.is_sender) = 0 or bool_or(not mb.is_sender and not mb.blocks_sender))
        ),
        locked as (
          select ${threads.id} from ${threads}
          where ${threads.id} in (select thread_id from allowed)
          order by ${threads.id} for no key update
        ),
        m as (
          insert into ${messages} (thread_id, sender_id, message, created_at, withheld_from)
          select thread_id, sender_id, message, created_at, withheld_from from allowed
          where (select count(*) from locked) >= 0
          order by n
          returning id, thread_id, sender_id, created_at, withheld_from
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
        ),
        -- Ids were drawn in the order given: the k-th smallest is the k-th allowed row.
        stored as (select id, thread_id, created_at, withheld_from, row_number() over (order by id) as k from m),
        sent as (select n, thread_id, row_number() over (order by n) as k from allowed)
        select mb.n, mb.id, mb.username, mb.image_url,
          s.id as message_id, s.thread_id as stored_thread_id, sent.thread_id as sent_thread_id, s.created_at,
          s.withheld_from
        from members mb
        left join sent on sent.n = mb.n
        left join stored s on s.k = sent.k
        order by mb.n, mb.id`,
      );
      const outcomes: SendOutcome[] = rows.map(() => ({ members: [], stored: null }));
      for (const r of rowsOf<{
        n: number;
        id: number;
        username: string;
        image_url: string | null;
        message_id: number | null;
        stored_thread_id: number | null;
        sent_thread_id: number | null;
        created_at: string | Date | null;
        withheld_from: number[] | null;
      }>(result)) {
        const outcome = outcomes[Number(r.n) - 1];
        if (!outcome) continue;
        if (r.stored_thread_id !== r.sent_thread_id) {
          throw new Error('sendMessages: the stored rows do not match the rows given');
        }
        outcome.members.push({
          id: Number(r.id),
          username: r.username,
          imageUrl: r.image_url,
        });
        if (r.message_id !== null && r.created_at !== null) {
          outcome.stored = {
            id: Number(r.message_id),
            createdAt: new Date(r.created_at),
            withheldFrom: (r.withheld_from ?? []).map(Number),
          };
        }
      }
      return outcomes;
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
