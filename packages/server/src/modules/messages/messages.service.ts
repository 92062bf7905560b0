import type { Message, MessagePage, Thread } from '@mesmer/shared/api/messages';
import { MESSAGES_PER_MINUTE, THREAD_MAX_MEMBERS } from '@mesmer/shared/domain/messaging';
import { type Db, withTransaction } from '../../db/client.ts';
import type { Access, SessionUser } from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { Clock } from '../../platform/clock.ts';
import { BadRequest, Forbidden, NotFound, refusedForItsValues } from '../../platform/errors.ts';
import { createGroupCommit } from '../../platform/group-commit.ts';
import type { Limit, RateLimiter } from '../../platform/rate-limit.ts';
import type { MessagesHub } from './messages.hub.ts';
import { toMessage, toThread } from './messages.presenter.ts';
import { createMessagesRepo, type NewMessage } from './messages.repo.ts';

const SEND_LIMIT: Limit = { name: 'messages send', max: MESSAGES_PER_MINUTE, windowMs: 60_000 };
const CANNOT_MESSAGE = 'You cannot message this user.';
const CANNOT_MESSAGE_ANYONE = 'You cannot message anyone in this thread.';
const GROUP_NAME_MAX = 100;
/**
 * How sends are batched (bench/README.md, "Realtime messaging"): the sends arriving within `delayMs`
 * of a batch's first are checked and stored together, at most `maxBatch`.
 */
export const SEND_BATCH = { delayMs: 5, maxBatch: 200 };

export type MessagesService = ReturnType<typeof createMessagesService>;

export function createMessagesService({
  db,
  clock,
  limiter,
  access,
  hub,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  access: Access;
  hub: MessagesHub;
}) {
  const repo = createMessagesRepo(db);
  // A send is one batched round trip (platform/group-commit.ts): its checks and its insert, together
  // with the sends arriving meanwhile, one statement and one commit per batch. One batch runs at a
  // time, so messages are stored in the order they arrived. A batch the database refused for a row
  // in it (a thread deleted meanwhile: a constraint, SQLSTATE class 23; a value it cannot take,
  // class 22) is sent again one by one, so only the bad one fails. Anything else (the database is
  // down, a batch that came back wrong after its commit) fails the batch's every send at once.
  const sender = createGroupCommit({
    write: (batch: NewMessage[]) => repo.sendMessages(batch),
    ...SEND_BATCH,
    retryAlone: refusedForItsValues,
  });

  /** Sends that have not answered yet: closing waits for them. */
  const sending = new Set<Promise<Message>>();

  async function sendNow(user: SessionUser, body: { threadId: number; message: string }): Promise<Message> {
    await limiter.consume(SEND_LIMIT, String(user.id));
    const { members, stored } = await sender.add({
      threadId: body.threadId,
      senderId: user.id,
      text: body.message,
      at: clock.now(),
    });
    const self = members.find((m) => m.id === user.id);
    if (!self) throw new NotFound('Thread not found.');
    const others = members.filter((m) => m.id !== user.id);
    if (!stored) throw new Forbidden(others.length === 1 ? CANNOT_MESSAGE : CANNOT_MESSAGE_ANYONE);
    const withheld = new Set(stored.withheldFrom);
    const message: Message = {
      id: stored.id,
      senderId: user.id,
      threadId: body.threadId,
      message: body.message,
      removed: false,
      createdAt: stored.createdAt.toISOString(),
      sender: { id: user.id, username: self.username, imageURL: self.imageUrl },
    };
    // No await between the batch's answer and here: pushes leave in the order of the ids.
    hub.deliver?.(
      message,
      members.filter((m) => !withheld.has(m.id)).map((m) => m.id),
      stored.withheldFrom,
    );
    return message;
  }

  async function memberThread(user: SessionUser, threadId: number) {
    const row = await repo.findForMember(threadId, user.id);
    if (!row) throw new NotFound('Thread not found.');
    return row;
  }

  return {
    async threads(
      user: SessionUser,
      q: { pageSize: number; pageOffset: number; isPrivate?: boolean },
    ): Promise<{ threads: Thread[]; totalItems: number }> {
      const { rows, total } = await repo.listThreads(user.id, {
        limit: q.pageSize,
        offset: q.pageOffset,
        isPrivate: q.isPrivate,
      });
      const members = await repo.membersOf(rows.map((r) => r.id));
      return {
        threads: rows.map((r) =>
          toThread(
            r,
            members.filter((m) => m.threadId === r.id),
            user.id,
          ),
        ),
        totalItems: total,
      };
    },

    async thread(user: SessionUser, threadId: number): Promise<Thread> {
      const row = await memberThread(user, threadId);
      return toThread(row, await repo.membersOf([row.id]), user.id);
    },

    /** Starts (or, for two people without a name, reuses) a thread; answers its id. */
    async createThread(user: SessionUser, body: { name: string | null; userIds: number[] }): Promise<number> {
      const others = [...new Set(body.userIds)].filter((id) => id !== user.id);
      if (others.length === 0) throw new BadRequest('userIds', 'name at least one other person');
      if (others.length + 1 > THREAD_MAX_MEMBERS) {
        throw new BadRequest('userIds', `a thread holds at most ${THREAD_MAX_MEMBERS} people`);
      }
      const found = await repo.existingUsers(others);
      if (found.length !== others.length) throw new BadRequest('userIds', 'unknown user');
      await access.users.requireNotBlocked(user.id, others, CANNOT_MESSAGE);

      const name = body.name ? body.name : null;
      if (name === null && others.length === 1) {
        const existing = await repo.findTwoPerson(user.id, others[0] as number);
        if (existing !== null) {
          await repo.unhide(existing, user.id);
          return existing;
        }
      }
      await limiter.consume(ACCOUNT_LIMITS.threadsCreated, String(user.id));
      // A group without a name is named after its people.
      const groupName =
        name ??
        (others.length > 1
          ? [user.username, ...found.map((u) => u.username)].join(', ').slice(0, GROUP_NAME_MAX)
          : null);
      return withTransaction(db, (tx) =>
        createMessagesRepo(tx).insertThread(groupName, user.id, [user.id, ...others]),
      );
    },

    /**
     * Stores a message and pushes it to the thread's room and its members, except the members who
     * blocked the sender: it is withheld from them for good. Refused when every other member did.
     * The message joins the next batch (group commit); the answer and the push come once its batch
     * committed, in the order the messages were accepted.
     */
    send(user: SessionUser, body: { threadId: number; message: string }): Promise<Message> {
      const sent = sendNow(user, body);
      sending.add(sent);
      sent.then(
        () => sending.delete(sent),
        () => sending.delete(sent),
      );
      return sent;
    },

    /** A page of history, oldest first; `before` = only older than that message id. */
    async history(
      user: SessionUser,
      q: { threadId: number; before?: number; pageSize: number },
    ): Promise<MessagePage> {
      await memberThread(user, q.threadId);
      const rows = await repo.history(q.threadId, user.id, q.before, q.pageSize);
      return { messages: rows.map(toMessage), startingId: rows[0]?.id ?? 0 };
    },

    async markRead(user: SessionUser, body: { threadId: number; messageId: number }): Promise<void> {
      await memberThread(user, body.threadId);
      await repo.markRead(body.threadId, user.id, body.messageId);
    },

    /** Stores the messages still queued, and later ones at once: the app calls it as it closes. */
    async close() {
      await sender.close();
      await Promise.allSettled([...sending]);
    },
  };
}
