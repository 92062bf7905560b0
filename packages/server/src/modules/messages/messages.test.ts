import type net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blocks, messages, threadMembers, threads } from '../../db/schema/index.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import { authHeader, createSignedInUser, createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let owner: Signed;
let alice: Signed;
let bob: Signed;
let carol: Signed;
let mallory: Signed;
let blocker: Signed;

beforeAll(async () => {
  // User 1 is the site owner; the others are ordinary users.
  owner = await createSignedInUser(app, { username: 'owner' });
  alice = await createSignedInUser(app, { username: 'alice' });
  bob = await createSignedInUser(app, { username: 'bob' });
  carol = await createSignedInUser(app, { username: 'carol' });
  mallory = await createSignedInUser(app, { username: 'mallory' });
  blocker = await createSignedInUser(app, { username: 'blocker' });
  // blocker blocked alice.
  await db.insert(blocks).values({ blockerId: blocker.id, blockedId: alice.id });
});

type Req = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object; token?: string };
const call = ({ method, url, payload, token }: Req) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
const createThread = (token: string | undefined, payload: object) =>
  call({ method: 'POST', url: '/api/messages/threads', payload, token });
const send = (token: string | undefined, payload: object) =>
  call({ method: 'POST', url: '/api/messages', payload, token });

async function newThread(token: string, payload: object): Promise<number> {
  const res = await createThread(token, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

describe('POST /api/messages/threads', () => {
  it('starts a two-person thread with both as members, and reuses it from either side', async () => {
    const res = await createThread(alice.token, { name: null, userIds: String(bob.id) });
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    expect(res.json()).toEqual({ id: expect.any(Number) });
    const [row] = await db.select().from(threads).where(eq(threads.id, id));
    expect(row).toMatchObject({ name: null, creatorId: alice.id, mostRecentMessage: 0 });
    const members = await db.select().from(threadMembers).where(eq(threadMembers.threadId, id));
    expect(members.map((m) => [m.userId, m.lastRead, m.hiddenAt]).sort()).toEqual(
      [
        [alice.id, 0, null],
        [bob.id, 0, null],
      ].sort(),
    );
    expect((await createThread(alice.token, { name: null, userIds: String(bob.id) })).json()).toEqual({ id });
    expect((await createThread(bob.token, { userIds: `${alice.id},${bob.id}` })).json()).toEqual({ id });
    expect((await createThread(bob.token, { name: '', userIds: String(alice.id) })).json()).toEqual({ id });
  });

  it('makes a named group, and names an unnamed group after its people', async () => {
    const named = await newThread(alice.token, { name: 'Study group', userIds: `${bob.id},${carol.id}` });
    expect((await db.select().from(threads).where(eq(threads.id, named)))[0]?.name).toBe('Study group');
    const unnamed = await newThread(alice.token, { name: null, userIds: `${bob.id},${carol.id}` });
    expect((await db.select().from(threads).where(eq(threads.id, unnamed)))[0]?.name).toBe(
      'alice, bob, carol',
    );
    const members = await db.select().from(threadMembers).where(eq(threadMembers.threadId, unnamed));
    expect(members.map((m) => m.userId).sort((a, b) => a - b)).toEqual([alice.id, bob.id, carol.id]);
  });

  it('shows a hidden two-person thread again when its member starts it again', async () => {
    const id = await newThread(carol.token, { name: null, userIds: String(bob.id) });
    await db
      .update(threadMembers)
      .set({ hiddenAt: new Date() })
      .where(and(eq(threadMembers.threadId, id), eq(threadMembers.userId, carol.id)));
    expect(await newThread(carol.token, { name: null, userIds: String(bob.id) })).toBe(id);
    const [member] = await db
      .select()
      .from(threadMembers)
      .where(and(eq(threadMembers.threadId, id), eq(threadMembers.userId, carol.id)));
    expect(member?.hiddenAt).toBeNull();
  });

  it('answers 400 naming userIds: malformed, only oneself, unknown users, more than 20 people', async () => {
    const extra: number[] = [];
    for (let i = 0; i < 20; i++) extra.push((await createUser(db)).id);
    const cases: [object, string][] = [
      [{ name: null, userIds: '' }, 'userIds'],
      [{ name: null, userIds: 'bob' }, 'userIds'],
      [{ name: null, userIds: String(alice.id) }, 'userIds'],
      [{ name: null, userIds: '999999' }, 'userIds'],
      [{ name: 'Too big', userIds: extra.join(',') }, 'userIds'],
      [{ name: 'x'.repeat(101), userIds: String(bob.id) }, 'name'],
      [{ name: 5, userIds: String(bob.id) }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await createThread(alice.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field, JSON.stringify(payload)).toBe(field);
    }
    expect(
      (await createThread(alice.token, { name: 'Exactly 20', userIds: extra.slice(0, 19).join(',') }))
        .statusCode,
    ).toBe(200);
  });

  it('answers 401 when signed out', async () => {
    expect((await createThread(undefined, { name: null, userIds: String(bob.id) })).statusCode).toBe(401);
  });

  it('answers 403 when one of them blocked the caller, and stores nothing', async () => {
    const before = await db.select().from(threads);
    for (const userIds of [String(blocker.id), `${bob.id},${blocker.id}`]) {
      const res = await createThread(alice.token, { name: null, userIds });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'You cannot message this user.' });
    }
    expect(await db.select().from(threads)).toHaveLength(before.length);
    // The block is one-way: the blocker may still start a thread.
    expect((await createThread(blocker.token, { name: null, userIds: String(alice.id) })).statusCode).toBe(
      200,
    );
  });
});

describe('POST /api/messages', () => {
  let pair: number;
  beforeAll(async () => {
    pair = await newThread(mallory.token, { name: null, userIds: String(owner.id) });
  });

  it('stores the trimmed message, makes it the newest and read by its sender', async () => {
    const res = await send(mallory.token, { threadId: pair, message: '  hello\nthere  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.any(Number) });
    const { id } = res.json();
    const [row] = await db.select().from(messages).where(eq(messages.id, id));
    expect(row).toMatchObject({
      threadId: pair,
      senderId: mallory.id,
      message: 'hello\nthere',
      removedAt: null,
    });
    expect((await db.select().from(threads).where(eq(threads.id, pair)))[0]?.mostRecentMessage).toBe(id);
    const members = await db.select().from(threadMembers).where(eq(threadMembers.threadId, pair));
    expect(Object.fromEntries(members.map((m) => [m.userId, m.lastRead]))).toEqual({
      [mallory.id]: id,
      [owner.id]: 0,
    });
  });

  it('takes exactly 2,000 characters and answers 400 naming message or threadId otherwise', async () => {
    expect((await send(mallory.token, { threadId: pair, message: 'x'.repeat(2000) })).statusCode).toBe(200);
    const cases: [object, string][] = [
      [{ threadId: pair, message: 'x'.repeat(2001) }, 'message'],
      [{ threadId: pair, message: '   ' }, 'message'],
      [{ threadId: pair, message: '' }, 'message'],
      [{ threadId: pair }, 'message'],
      [{ threadId: pair, message: 'a\u0000b' }, 'message'],
      [{ threadId: 0, message: 'hi' }, 'threadId'],
      [{ threadId: '1', message: 'hi' }, 'threadId'],
    ];
    for (const [payload, field] of cases) {
      const res = await send(mallory.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('answers 401 signed out and 404 to a non-member or an unknown thread, storing nothing', async () => {
    const count = (await db.select().from(messages)).length;
    expect((await send(undefined, { threadId: pair, message: 'hi' })).statusCode).toBe(401);
    for (const threadId of [pair, 999999]) {
      const res = await send(carol.token, { threadId, message: 'hi' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Thread not found.' });
    }
    expect(await db.select().from(messages)).toHaveLength(count);
  });

  it('answers 403 in a two-person thread when the other person blocked the sender', async () => {
    const id = await newThread(blocker.token, { name: null, userIds: String(alice.id) });
    const res = await send(alice.token, { threadId: id, message: 'hi' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You cannot message this user.' });
    expect((await send(blocker.token, { threadId: id, message: 'still can' })).statusCode).toBe(200);
  });
});

describe('GET /api/messages/threads and /api/messages/thread', () => {
  let list: Signed;
  let friend: Signed;
  let other: Signed;
  let pair: number;
  let group: number;
  let hidden: number;
  beforeAll(async () => {
    list = await createSignedInUser(app, { username: 'lister' });
    friend = await createSignedInUser(app, { username: 'friend' });
    other = await createSignedInUser(app, { username: 'other' });
    pair = await newThread(list.token, { name: null, userIds: String(friend.id) });
    group = await newThread(list.token, { name: 'Group', userIds: `${friend.id},${other.id}` });
    hidden = await newThread(list.token, { name: null, userIds: String(other.id) });
    await db
      .update(threadMembers)
      .set({ hiddenAt: new Date() })
      .where(and(eq(threadMembers.threadId, hidden), eq(threadMembers.userId, list.id)));
    await send(friend.token, { threadId: pair, message: 'newest' });
  });
  const threadsOf = (token: string | undefined, query = '') =>
    call({ method: 'GET', url: `/api/messages/threads${query}`, token });

  it('lists the caller’s visible threads, newest activity first, as the caller sees them', async () => {
    const res = await threadsOf(list.token);
    expect(res.statusCode).toBe(200);
    const [message] = await db.select().from(messages).where(eq(messages.threadId, pair));
    expect(res.json()).toEqual({
      totalItems: 2,
      threads: [
        {
          id: pair,
          name: 'friend',
          users: [{ id: friend.id, username: 'friend', imageURL: null }],
          userIds: [list.id, friend.id],
          lastRead: 0,
          mostRecentMessage: message?.id,
          isGroup: false,
        },
        {
          id: group,
          name: 'Group',
          users: [
            { id: friend.id, username: 'friend', imageURL: null },
            { id: other.id, username: 'other', imageURL: null },
          ],
          userIds: [list.id, friend.id, other.id],
          lastRead: 0,
          mostRecentMessage: 0,
          isGroup: true,
        },
      ],
    });
    // The other side of the hidden thread still sees it.
    expect((await threadsOf(other.token)).json().threads.map((t: { id: number }) => t.id)).toEqual([
      hidden,
      group,
    ]);
  });

  it('pages and filters by isPrivate', async () => {
    const page = (await threadsOf(list.token, '?pageSize=1&pageOffset=1')).json();
    expect(page.totalItems).toBe(2);
    expect(page.threads.map((t: { id: number }) => t.id)).toEqual([group]);
    expect((await threadsOf(list.token, '?isPrivate=true')).json()).toMatchObject({
      totalItems: 1,
      threads: [{ id: pair }],
    });
    expect((await threadsOf(list.token, '?isPrivate=false')).json()).toMatchObject({
      totalItems: 1,
      threads: [{ id: group }],
    });
  });

  it('answers 400 naming the field and 401 signed out', async () => {
    for (const [query, field] of [
      ['?pageSize=51', 'pageSize'],
      ['?pageSize=0', 'pageSize'],
      ['?pageOffset=-1', 'pageOffset'],
      ['?isPrivate=maybe', 'isPrivate'],
    ]) {
      const res = await threadsOf(list.token, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await threadsOf(undefined)).statusCode).toBe(401);
  });

  it('answers one thread to a member (hidden too), 404 to others, 400 for a bad id, 401 signed out', async () => {
    const one = await call({ method: 'GET', url: `/api/messages/thread?id=${group}`, token: other.token });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      id: group,
      name: 'Group',
      isGroup: true,
      userIds: [list.id, friend.id, other.id],
    });
    expect(one.json().users.map((u: { id: number }) => u.id)).toEqual([list.id, friend.id]);
    expect(
      (await call({ method: 'GET', url: `/api/messages/thread?id=${hidden}`, token: list.token })).statusCode,
    ).toBe(200);
    const res = await call({ method: 'GET', url: `/api/messages/thread?id=${pair}`, token: other.token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Thread not found.' });
    const bad = await call({ method: 'GET', url: '/api/messages/thread?id=abc', token: other.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('id');
    expect((await call({ method: 'GET', url: `/api/messages/thread?id=${group}` })).statusCode).toBe(401);
  });
});

describe('GET /api/messages and PUT /api/messages/read', () => {
  let a: Signed;
  let b: Signed;
  let outsider: Signed;
  let id: number;
  const ids: number[] = [];
  beforeAll(async () => {
    a = await createSignedInUser(app, { username: 'histA' });
    b = await createSignedInUser(app, { username: 'histB' });
    outsider = await createSignedInUser(app, { username: 'histC' });
    id = await newThread(a.token, { name: null, userIds: String(b.id) });
    for (let i = 1; i <= 5; i++) {
      ids.push((await send(i % 2 ? a.token : b.token, { threadId: id, message: `m${i}` })).json().id);
    }
    await db
      .update(messages)
      .set({ removedAt: new Date() })
      .where(eq(messages.id, ids[1] as number));
  });
  const history = (token: string | undefined, query: string) =>
    call({ method: 'GET', url: `/api/messages${query}`, token });
  const markRead = (token: string | undefined, payload: object) =>
    call({ method: 'PUT', url: '/api/messages/read', payload, token });

  it('answers the newest page oldest first, then older pages before a message id', async () => {
    const res = await history(b.token, `?threadId=${id}&pageSize=3`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      startingId: ids[2],
      messages: [3, 4, 5].map((n) => ({
        id: ids[n - 1],
        senderId: n % 2 ? a.id : b.id,
        threadId: id,
        message: `m${n}`,
        removed: false,
        createdAt: expect.any(String),
        sender: { id: n % 2 ? a.id : b.id, username: n % 2 ? 'histA' : 'histB', imageURL: null },
      })),
    });
    const older = (await history(b.token, `?threadId=${id}&before=${ids[2]}`)).json();
    expect(older.startingId).toBe(ids[0]);
    expect(older.messages.map((m: { message: string; removed: boolean }) => [m.message, m.removed])).toEqual([
      ['m1', false],
      ['', true],
    ]);
    expect((await history(b.token, `?threadId=${id}&before=${ids[0]}`)).json()).toEqual({
      messages: [],
      startingId: 0,
    });
  });

  it('answers 400 naming the field, 401 signed out, 404 to a non-member', async () => {
    for (const [query, field] of [
      ['', 'threadId'],
      [`?threadId=${id}&before=x`, 'before'],
      [`?threadId=${id}&pageSize=101`, 'pageSize'],
    ]) {
      const res = await history(b.token, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await history(undefined, `?threadId=${id}`)).statusCode).toBe(401);
    expect((await history(outsider.token, `?threadId=${id}`)).statusCode).toBe(404);
  });

  it('marks read up to a message, never backwards nor past the newest', async () => {
    const lastRead = async () =>
      (
        await db
          .select()
          .from(threadMembers)
          .where(and(eq(threadMembers.threadId, id), eq(threadMembers.userId, b.id)))
      )[0]?.lastRead;
    const res = await markRead(b.token, { threadId: id, messageId: ids[3] });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await lastRead()).toBe(ids[3]);
    await markRead(b.token, { threadId: id, messageId: ids[0] });
    expect(await lastRead()).toBe(ids[3]);
    await markRead(b.token, { threadId: id, messageId: 2_000_000_000 });
    expect(await lastRead()).toBe(ids[4]);
    const thread = (
      await call({ method: 'GET', url: `/api/messages/thread?id=${id}`, token: b.token })
    ).json();
    expect(thread).toMatchObject({ lastRead: ids[4], mostRecentMessage: ids[4] });
  });

  it('answers 400 naming the field, 401 signed out, 404 to a non-member (storing nothing)', async () => {
    for (const [payload, field] of [
      [{ threadId: id, messageId: -1 }, 'messageId'],
      [{ threadId: id }, 'messageId'],
      [{ messageId: 1 }, 'threadId'],
    ] as const) {
      const res = await markRead(b.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await markRead(undefined, { threadId: id, messageId: 1 })).statusCode).toBe(401);
    expect((await markRead(outsider.token, { threadId: id, messageId: ids[4] })).statusCode).toBe(404);
    const rows = await db.select().from(threadMembers).where(eq(threadMembers.userId, outsider.id));
    expect(rows).toEqual([]);
  });
});

describe('a block means no contact from the blocked user', () => {
  let victim: Signed;
  let pest: Signed;
  let third: Signed;
  let pair: number;
  let named: number;
  let group: number;
  let quiet: number;
  let beforeInGroup: number;
  let victimInGroup: number;
  let beforeInNamed: number;
  beforeAll(async () => {
    victim = await createSignedInUser(app, { username: 'victim' });
    pest = await createSignedInUser(app, { username: 'pest' });
    third = await createSignedInUser(app, { username: 'third' });
    pair = await newThread(pest.token, { name: null, userIds: String(victim.id) });
    // The pest names a thread with only the victim in it, and a group with someone else.
    named = await newThread(pest.token, { name: 'Just us', userIds: String(victim.id) });
    group = await newThread(pest.token, { name: 'Three', userIds: `${victim.id},${third.id}` });
    quiet = await newThread(victim.token, { name: 'Quiet', userIds: String(third.id) });
    beforeInNamed = (await send(pest.token, { threadId: named, message: 'before, named' })).json().id;
    victimInGroup = (await send(victim.token, { threadId: group, message: 'victim says' })).json().id;
    beforeInGroup = (await send(pest.token, { threadId: group, message: 'before, group' })).json().id;
    await send(third.token, { threadId: quiet, message: 'quiet' });
    // The victim blocks the pest from the two-person thread, so the others stay in their list.
    const blocked = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId: pair },
      token: victim.token,
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toEqual({ blocked: [pest.id], reportId: null });
  });
  const listOf = async (token: string) =>
    (await call({ method: 'GET', url: '/api/messages/threads', token })).json().threads as {
      id: number;
      mostRecentMessage: number;
      lastRead: number;
    }[];
  const historyOf = async (token: string, threadId: number) =>
    (await call({ method: 'GET', url: `/api/messages?threadId=${threadId}`, token }))
      .json()
      .messages.map((m: { message: string }) => m.message);

  it('refuses a post to a named thread whose only other member blocked the sender, storing nothing', async () => {
    const count = (await db.select().from(messages)).length;
    const res = await send(pest.token, { threadId: named, message: 'after' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You cannot message this user.' });
    expect(await db.select().from(messages)).toHaveLength(count);
    // The blocker may still write there.
    expect((await send(victim.token, { threadId: named, message: 'from the victim' })).statusCode).toBe(200);
  });

  it('refuses a post to a group when every other member blocked the sender', async () => {
    const one = await createSignedInUser(app, { username: 'blockerOne' });
    const two = await createSignedInUser(app, { username: 'blockerTwo' });
    const id = await newThread(pest.token, { name: 'Two blockers', userIds: `${one.id},${two.id}` });
    await db.insert(blocks).values({ blockerId: one.id, blockedId: pest.id });
    // One of two blocked the sender: the other still gets the post.
    expect((await send(pest.token, { threadId: id, message: 'one left' })).statusCode).toBe(200);
    await db.insert(blocks).values({ blockerId: two.id, blockedId: pest.id });
    const res = await send(pest.token, { threadId: id, message: 'anyone?' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You cannot message anyone in this thread.' });
    const stored = await db.select().from(messages).where(eq(messages.threadId, id));
    expect(stored.map((m) => [m.message, m.withheldFrom])).toEqual([['one left', [one.id]]]);
  });

  it('withholds a group post from the blocker for good: history, list order, unread mark', async () => {
    const res = await send(pest.token, { threadId: group, message: 'after, group' });
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    const [row] = await db.select().from(messages).where(eq(messages.id, id));
    expect(row?.withheldFrom).toEqual([victim.id]);
    // The third member gets it; the blocker sees neither it nor the pest's earlier messages.
    expect(await historyOf(third.token, group)).toEqual(['victim says', 'before, group', 'after, group']);
    expect(await historyOf(victim.token, group)).toEqual(['victim says']);
    expect(await historyOf(victim.token, named)).toEqual(['from the victim']);
    const thirds = await listOf(third.token);
    expect(thirds.find((t) => t.id === group)).toMatchObject({ mostRecentMessage: id, lastRead: 0 });
    // For the victim the group's newest is their own message (read): not unread, not moved up.
    const victims = await listOf(victim.token);
    expect(victims.map((t) => t.id)).toEqual([named, quiet, group]);
    expect(victims.find((t) => t.id === group)).toMatchObject({
      mostRecentMessage: victimInGroup,
      lastRead: victimInGroup,
    });
    const one = await call({ method: 'GET', url: `/api/messages/thread?id=${group}`, token: victim.token });
    expect(one.json()).toMatchObject({ mostRecentMessage: victimInGroup, lastRead: victimInGroup });
    // The pest sees their own messages as usual.
    expect(await historyOf(pest.token, group)).toEqual(['victim says', 'before, group', 'after, group']);
  });

  it('after unblocking, shows what came before the block again but never what was withheld', async () => {
    const res = await call({
      method: 'DELETE',
      url: `/api/user/block?userId=${pest.id}`,
      token: victim.token,
    });
    expect(res.statusCode).toBe(204);
    expect(await historyOf(victim.token, group)).toEqual(['victim says', 'before, group']);
    expect(await historyOf(victim.token, named)).toEqual(['before, named', 'from the victim']);
    expect((await listOf(victim.token)).find((t) => t.id === group)).toMatchObject({
      mostRecentMessage: beforeInGroup,
    });
    expect(beforeInNamed).toBeGreaterThan(0);
    await db.insert(blocks).values({ blockerId: victim.id, blockedId: pest.id });
  });

  describe('over the socket', () => {
    const sockets: Socket[] = [];
    let base = '';
    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    });
    afterAll(() => {
      for (const socket of sockets) socket.disconnect();
    });
    const open = (token: string): Promise<Socket> => {
      const socket = connect(base, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token },
      });
      sockets.push(socket);
      return new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    };
    const heard = (socket: Socket, event: string) => {
      const got: unknown[] = [];
      socket.on(event, (payload: unknown) => got.push(payload));
      return got;
    };

    it('pushes nothing of the blocked user’s post to the blocker, and all of it to the others', async () => {
      const victimSocket = await open(victim.token);
      const thirdSocket = await open(third.token);
      for (const socket of [victimSocket, thirdSocket]) {
        const page = new Promise((resolve) => socket.once('bulk_messages', resolve));
        socket.emit('set_thread', group, null);
        await page;
      }
      // Sockets without the thread open (another page of the same people) hear thread_updated.
      const victimElsewhere = await open(victim.token);
      const thirdElsewhere = await open(third.token);
      const toVictim = {
        message: heard(victimSocket, 'message'),
        updated: heard(victimElsewhere, 'thread_updated'),
      };
      const toThird = {
        message: heard(thirdSocket, 'message'),
        updated: heard(thirdElsewhere, 'thread_updated'),
      };
      // A socket with the thread open takes the message as the thread's update: one frame each.
      const updatedInThread = [heard(victimSocket, 'thread_updated'), heard(thirdSocket, 'thread_updated')];
      const pestPost = (await send(pest.token, { threadId: group, message: 'live' })).json().id;
      const thirdPost = (await send(third.token, { threadId: group, message: 'marker' })).json().id;
      // The third member's later post arriving on both sockets shows the pest's had its chance.
      await vi.waitFor(() => {
        expect(toVictim.message).toHaveLength(1);
        expect(toThird.message).toHaveLength(2);
      });
      expect(toVictim.message).toEqual([expect.objectContaining({ id: thirdPost, message: 'marker' })]);
      expect(toThird.message).toEqual([
        expect.objectContaining({ id: pestPost, message: 'live' }),
        expect.objectContaining({ id: thirdPost, message: 'marker' }),
      ]);
      await vi.waitFor(() => expect(toThird.updated).toHaveLength(2));
      expect(toVictim.updated).toEqual([{ threadId: group, mostRecentMessage: thirdPost }]);
      expect(updatedInThread).toEqual([[], []]);
    });
  });
});

// The limit counts only with RATE_LIMIT on, so it gets its own app.
const limited = await createTestApp({ rateLimit: true });

describe('the sending limit', () => {
  it('answers 429 with Retry-After after 30 messages a minute per user, and not for another user', async () => {
    const l = limited.app;
    const a = await createSignedInUser(l, { username: 'fastA' });
    const b = await createSignedInUser(l, { username: 'fastB' });
    const created = await l.inject({
      method: 'POST',
      url: '/api/messages/threads',
      payload: { name: null, userIds: String(b.id) },
      headers: authHeader(a.token),
    });
    const threadId = created.json().id;
    const post = (token: string) =>
      l.inject({
        method: 'POST',
        url: '/api/messages',
        payload: { threadId, message: 'hi' },
        headers: authHeader(token),
      });
    for (let i = 0; i < 30; i++) expect((await post(a.token)).statusCode).toBe(200);
    const res = await post(a.token);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.json()).toEqual({ error: 'Too many attempts. Please wait a minute and try again.' });
    expect(await l.ctx.db.select().from(messages).where(eq(messages.threadId, threadId))).toHaveLength(30);
    expect((await post(b.token)).statusCode).toBe(200);
    limited.clock.advance(61_000);
    expect((await post(a.token)).statusCode).toBe(200);
  });
});

describe('the thread-creation limit', () => {
  it(`answers 429 with Retry-After after ${ACCOUNT_LIMITS.threadsCreated.max} new threads an hour; reopening one is not counted`, async () => {
    const l = limited.app;
    const starter = await createSignedInUser(l, { username: 'starter' });
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await createSignedInUser(l, { username: `named${i}` }));
    const start = (payload: object) =>
      l.inject({ method: 'POST', url: '/api/messages/threads', payload, headers: authHeader(starter.token) });
    const userIds = others.map((u) => u.id).join(',');
    const pair = (await start({ name: null, userIds: String(others[0]?.id) })).json().id;
    for (let i = 1; i < ACCOUNT_LIMITS.threadsCreated.max; i++) {
      expect((await start({ name: `Group ${i}`, userIds })).statusCode).toBe(200);
    }
    const count = async () =>
      (await l.ctx.db.select().from(threads).where(eq(threads.creatorId, starter.id))).length;
    expect(await count()).toBe(ACCOUNT_LIMITS.threadsCreated.max);
    const res = await start({ name: 'One too many', userIds });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(res.json()).toEqual({ error: 'Too many attempts. Please wait an hour and try again.' });
    expect(await count()).toBe(ACCOUNT_LIMITS.threadsCreated.max);
    // The existing two-person thread still opens.
    expect((await start({ name: null, userIds: String(others[0]?.id) })).json()).toEqual({ id: pair });
    limited.clock.advance(60 * 60 * 1000 + 1000);
    expect((await start({ name: 'Next hour', userIds })).statusCode).toBe(200);
  });
});
