import type net from 'node:net';
import type { Message } from '@mesmer/shared/api/messages';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, messages, threadMembers, threads } from '../../db/schema/index.ts';
import type { SessionUser } from '../../platform/access.ts';
import { authHeader, createSignedInUser, createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp, testDbKind } from '../../test/harness.ts';
import { createMessagesRepo, type NewMessage } from './messages.repo.ts';

// Sends are stored in batches (group commit, platform/group-commit.ts): these tests hold the
// batching to what one send at a time promised. Rate limits are off: they send more than 30 a minute.
const { app, config } = await createTestApp({ rateLimit: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let alice: Signed;
let bob: Signed;
let threadId: number;

const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

/** A socket of `token` in the thread's room, collecting the messages pushed to it. */
async function listen(token: string, thread: number): Promise<Message[]> {
  const socket = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  sockets.push(socket);
  const got: Message[] = [];
  socket.on('message', (m: Message) => got.push(m));
  const ready = new Promise((resolve) => socket.once('bulk_messages', resolve));
  socket.emit('set_thread', thread, null, null);
  await ready;
  return got;
}

const send = (token: string, payload: object) =>
  app.inject({ method: 'POST', url: '/api/messages', payload, headers: authHeader(token) });

const sessionUser = async (token: string) =>
  (await app.services.sessions.sessionUser(
    token,
    app.ctx.clock.now(),
    config.sessionIdleDays,
  )) as SessionUser;

async function newThread(token: string, userId: number): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/messages/threads',
    payload: { name: null, userIds: String(userId) },
    headers: authHeader(token),
  });
  return res.json().id;
}

const until = async (done: () => boolean, ms = 3000) => {
  for (const end = Date.now() + ms; !done() && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 10));
};

beforeAll(async () => {
  await createUser(db, { username: 'owner' });
  alice = await createSignedInUser(app, { username: 'alice' });
  bob = await createSignedInUser(app, { username: 'bob' });
  threadId = await newThread(alice.token, bob.id);
});

describe('sends stored in batches', () => {
  it('keeps the order sends were made in: ids, stored rows and socket pushes', async () => {
    const pushed = await listen(bob.token, threadId);
    const [a, b] = [await sessionUser(alice.token), await sessionUser(bob.token)];
    // Made one after the other without waiting, by both members: many share a batch.
    const texts = Array.from({ length: 60 }, (_, i) => `order ${i}`);
    const answers = await Promise.all(
      texts.map((message, i) => app.services.messages.send(i % 3 === 0 ? b : a, { threadId, message })),
    );
    const ids = answers.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await db
      .select({ id: messages.id, message: messages.message })
      .from(messages)
      .where(inArray(messages.id, ids))
      .orderBy(asc(messages.id));
    expect(stored.map((r) => r.message)).toEqual(texts);
    await until(() => pushed.length >= texts.length);
    expect(pushed.map((m) => m.message)).toEqual(texts);
    expect(pushed.map((m) => m.id)).toEqual(ids);
    const [thread] = await db.select().from(threads).where(eq(threads.id, threadId));
    expect(thread?.mostRecentMessage).toBe(ids.at(-1));
  });

  it('keeps each thread in the order its messages were accepted when many arrive over HTTP at once', async () => {
    const pushed = await listen(alice.token, threadId);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => send(bob.token, { threadId, message: `http ${i}` })),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const ids = answers.map((res) => res.json().id as number);
    const stored = await db
      .select({ id: messages.id, createdAt: messages.createdAt })
      .from(messages)
      .where(inArray(messages.id, ids))
      .orderBy(asc(messages.id));
    expect(stored).toHaveLength(40);
    // Each was stamped as it was accepted: ids ascend with that time.
    const times = stored.map((r) => r.createdAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => x - y));
    await until(() => pushed.filter((m) => m.message.startsWith('http ')).length >= 40);
    const pushedIds = pushed.filter((m) => m.message.startsWith('http ')).map((m) => m.id);
    expect(pushedIds).toEqual([...ids].sort((x, y) => x - y));
  });

  it('stores concurrent sends to many threads exactly once each, and answers every one', async () => {
    const people = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createSignedInUser(app, { username: `many${i}` })),
    );
    const pairs = await Promise.all(
      Array.from({ length: 6 }, async (_, p) => {
        const [x, y] = [people[2 * p] as Signed, people[2 * p + 1] as Signed];
        return { x, y, thread: await newThread(x.token, y.id) };
      }),
    );
    const sends = pairs.flatMap(({ x, y, thread }) =>
      Array.from({ length: 8 }, (_, i) => ({
        token: (i % 2 ? y : x).token,
        thread,
        message: `t${thread} m${i}`,
      })),
    );
    const answers = await Promise.all(
      sends.map((s) => send(s.token, { threadId: s.thread, message: s.message })),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const threadIds = pairs.map((p) => p.thread);
    const stored = await db
      .select({ id: messages.id, threadId: messages.threadId, message: messages.message })
      .from(messages)
      .where(inArray(messages.threadId, threadIds))
      .orderBy(asc(messages.id));
    expect(stored.map((r) => r.message).sort()).toEqual(sends.map((s) => s.message).sort());
    const byText = new Map(stored.map((r) => [r.message, r]));
    answers.forEach((res, i) => {
      expect(byText.get(sends[i]?.message as string)?.id).toBe(res.json().id);
    });
    for (const { x, y, thread } of pairs) {
      const mine = stored.filter((r) => r.threadId === thread);
      const [row] = await db.select().from(threads).where(eq(threads.id, thread));
      expect(row?.mostRecentMessage).toBe(mine.at(-1)?.id);
      const marks = await db
        .select({ userId: threadMembers.userId, lastRead: threadMembers.lastRead })
        .from(threadMembers)
        .where(eq(threadMembers.threadId, thread));
      const lastOf = (u: Signed) =>
        Math.max(
          ...answers
            .filter((_, i) => sends[i]?.thread === thread && sends[i]?.token === u.token)
            .map((r) => r.json().id),
        );
      expect(Object.fromEntries(marks.map((m) => [m.userId, m.lastRead]))).toEqual({
        [x.id]: lastOf(x),
        [y.id]: lastOf(y),
      });
    }
  });

  it('checks each send of a batch on its own: refused ones answer their error, the others are stored in order', async () => {
    const stranger = await createSignedInUser(app, { username: 'stranger' });
    const notAlices = await newThread(stranger.token, bob.id);
    const blocking = await createSignedInUser(app, { username: 'blocking' });
    const blocked = await newThread(alice.token, blocking.id);
    const group = await app.inject({
      method: 'POST',
      url: '/api/messages/threads',
      payload: { name: 'mixed', userIds: `${bob.id},${blocking.id}` },
      headers: authHeader(alice.token),
    });
    const mixed = group.json().id as number;
    await db.insert(blocks).values({ blockerId: blocking.id, blockedId: alice.id });
    const sends = [
      { threadId, message: 'mix 1' },
      { threadId: notAlices, message: 'mix not a member' },
      { threadId: mixed, message: 'mix 2' },
      { threadId: blocked, message: 'mix blocked' },
      { threadId: 2_000_000_000, message: 'mix no thread' },
      { threadId, message: 'mix 3' },
    ];
    // Sent together: one batch.
    const answers = await Promise.all(sends.map((s) => send(alice.token, s)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 200, 403, 404, 200]);
    expect(answers[1]?.json().error).toBe('Thread not found.');
    expect(answers[3]?.json().error).toBe('You cannot message this user.');
    const [one, two, three] = [0, 2, 5].map((i) => answers[i]?.json().id as number);
    expect(one).toBeLessThan(two as number);
    expect(two).toBeLessThan(three as number);
    const stored = await db
      .select({
        id: messages.id,
        threadId: messages.threadId,
        message: messages.message,
        withheldFrom: messages.withheldFrom,
      })
      .from(messages)
      .where(
        inArray(
          messages.message,
          sends.map((s) => s.message),
        ),
      )
      .orderBy(asc(messages.id));
    expect(stored).toEqual([
      { id: one, threadId, message: 'mix 1', withheldFrom: [] },
      { id: two, threadId: mixed, message: 'mix 2', withheldFrom: [blocking.id] },
      { id: three, threadId, message: 'mix 3', withheldFrom: [] },
    ]);
    await db.delete(blocks).where(eq(blocks.blockerId, blocking.id));
  });

  it('answers only once the message is committed: a separate read sees it the moment the answer arrives', async () => {
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(alice.token, { threadId, message: `committed ${i}` }).then(async (res) => {
          const [row] = await db
            .select({ id: messages.id })
            .from(messages)
            .where(eq(messages.id, res.json().id));
          return row?.id === res.json().id;
        }),
      ),
    );
    expect(seen.every(Boolean)).toBe(true);
  });

  describe('when the database refuses', () => {
    beforeAll(async () => {
      // A row the database refuses (as a constraint would), and the database going away (a
      // connection-failure SQLSTATE), each on a message text of its own.
      await db.execute(sql`
        create function refuse_test_messages() returns trigger language plpgsql as $$
        begin
          if new.message = 'refused' then raise exception 'refused row' using errcode = '23514'; end if;
          if new.message = 'database gone' then raise exception 'gone' using errcode = '57P01'; end if;
          return new;
        end $$`);
      await db.execute(
        sql`create trigger refuse_test_messages before insert on messages for each row execute function refuse_test_messages()`,
      );
    });
    afterAll(async () => {
      await db.execute(sql`drop trigger refuse_test_messages on messages`);
    });

    it('fails only the refused send of a batch, storing the others in order', async () => {
      const texts = ['before', 'refused', 'after'];
      const answers = await Promise.all(texts.map((message) => send(alice.token, { threadId, message })));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 500, 200]);
      const [before, after] = [answers[0]?.json().id, answers[2]?.json().id];
      expect(before).toBeLessThan(after);
      const stored = await db
        .select({ message: messages.message })
        .from(messages)
        .where(and(eq(messages.threadId, threadId), inArray(messages.message, texts)));
      expect(stored.map((r) => r.message).sort()).toEqual(['after', 'before']);
    });

    it('answers every send of a batch an error when the database fails it, without waiting on', async () => {
      const texts = ['with the gone one 1', 'database gone', 'with the gone one 2'];
      const started = Date.now();
      const answers = await Promise.all(texts.map((message) => send(alice.token, { threadId, message })));
      expect(answers.map((r) => r.statusCode)).toEqual([503, 503, 503]);
      expect(Date.now() - started).toBeLessThan(2000);
      const stored = await db.select().from(messages).where(inArray(messages.message, texts));
      expect(stored).toEqual([]);
    });
  });
});

describe('closing the app', async () => {
  const second = await createTestApp({ rateLimit: false });

  it('stores the sends still waiting for their batch before it closes, and answers them', async () => {
    const x = await createSignedInUser(second.app, { username: 'closer' });
    const y = await createSignedInUser(second.app, { username: 'closed' });
    const thread = await newThreadOn(second.app, x.token, y.id);
    const user = (await second.app.services.sessions.sessionUser(
      x.token,
      second.app.ctx.clock.now(),
      second.config.sessionIdleDays,
    )) as SessionUser;
    const pending = Array.from({ length: 10 }, (_, i) =>
      second.app.services.messages.send(user, { threadId: thread, message: `at close ${i}` }),
    );
    let answered = 0;
    for (const p of pending) void p.then(() => answered++);
    await second.app.close();
    // Stored and answered by the time the app has closed (the database would close next).
    expect(answered).toBe(pending.length);
    const stored = await second.app.ctx.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.threadId, thread))
      .orderBy(asc(messages.id));
    const answers = await Promise.all(pending);
    expect(stored.map((r) => r.id)).toEqual(answers.map((m) => m.id));
  });
});

async function newThreadOn(target: typeof app, token: string, userId: number): Promise<number> {
  const res = await target.inject({
    method: 'POST',
    url: '/api/messages/threads',
    payload: { name: null, userIds: String(userId) },
    headers: authHeader(token),
  });
  return res.json().id;
}

// Two processes each store their own batches; a thread's members may sit on either, so two batches
// can hold messages of the same threads.
describe.runIf(testDbKind === 'postgres')('batches of two processes at once', () => {
  it('store both when they post to the same threads in opposite orders (no deadlock)', async () => {
    const carol = await createSignedInUser(app, { username: 'carol' });
    const first = await newThread(carol.token, alice.id);
    const second = await newThread(carol.token, bob.id);
    const message = (thread: number, text: string): NewMessage => ({
      threadId: thread,
      senderId: carol.id,
      text,
      at: new Date(),
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstLocked = () => {};
    const locked = new Promise<void>((resolve) => {
      firstLocked = resolve;
    });
    // Batch A holds the first thread, uncommitted, while batch B comes with [second, first]; then
    // A goes on to the second thread. B must wait for the first without holding the second.
    const a = db.transaction(async (tx) => {
      await createMessagesRepo(tx).sendMessages([message(first, 'a1')]);
      firstLocked();
      await released;
      await createMessagesRepo(tx).sendMessages([message(second, 'a2')]);
    });
    await locked;
    const b = createMessagesRepo(db).sendMessages([message(second, 'b2'), message(first, 'b1')]);
    await new Promise((r) => setTimeout(r, 200));
    // B waits for the first thread without holding the second: another writer may lock it at once.
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${threads} where id = ${second} for no key update nowait`);
    });
    release();
    await expect(Promise.all([a, b])).resolves.toBeDefined();
    const stored = await db
      .select({ message: messages.message })
      .from(messages)
      .where(inArray(messages.threadId, [first, second]));
    expect(stored.map((r) => r.message).sort()).toEqual(['a1', 'a2', 'b1', 'b2']);
  });
});
