import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { blocks, reports, threadMembers, users } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let alice: Signed;
let bob: Signed;
let carol: Signed;
let threadId: number;

type Req = { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object; token?: string };
const call = ({ method, url, payload, token }: Req) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });

beforeAll(async () => {
  await createSignedInUser(app, { username: 'owner' });
  alice = await createSignedInUser(app, { username: 'alice' });
  bob = await createSignedInUser(app, { username: 'bob' });
  carol = await createSignedInUser(app, { username: 'carol' });
  const res = await call({
    method: 'POST',
    url: '/api/messages/threads',
    payload: { name: null, userIds: String(bob.id) },
    token: alice.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  threadId = res.json().id;
});

describe('POST /api/user/block', () => {
  it('401 without a session, 400 naming threadId and reportMessage, 404 for a non-member', async () => {
    expect((await call({ method: 'POST', url: '/api/user/block', payload: { threadId } })).statusCode).toBe(
      401,
    );
    const bad = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId: 'x' },
      token: alice.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('threadId');
    const long = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId, report: true, reportMessage: 'x'.repeat(2001) },
      token: alice.token,
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('reportMessage');
    const other = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId },
      token: carol.token,
    });
    expect(other.statusCode).toBe(404);
    expect(await db.select().from(blocks)).toEqual([]);
  });

  it('blocks the other member, hides the thread for the caller, files the report; blockersOf sees it', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/user/block',
      payload: { threadId, report: true, reportMessage: ' rude ' },
      token: alice.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { reportId } = res.json();
    expect(res.json()).toEqual({ blocked: [bob.id], reportId: expect.any(Number) });
    expect(await db.select({ a: blocks.blockerId, b: blocks.blockedId }).from(blocks)).toEqual([
      { a: alice.id, b: bob.id },
    ]);
    const [mine] = await db
      .select()
      .from(threadMembers)
      .where(and(eq(threadMembers.threadId, threadId), eq(threadMembers.userId, alice.id)));
    expect(mine.hiddenAt).toBeInstanceOf(Date);
    const [theirs] = await db
      .select()
      .from(threadMembers)
      .where(and(eq(threadMembers.threadId, threadId), eq(threadMembers.userId, bob.id)));
    expect(theirs.hiddenAt).toBeNull();
    const [report] = await db.select().from(reports).where(eq(reports.id, reportId));
    expect(report).toMatchObject({
      reporterId: alice.id,
      subjectType: 'thread',
      subjectId: threadId,
      reportedUserId: bob.id,
      reason: 'rude',
      resolution: null,
    });
    expect([...(await app.services.access.users.blockersOf(bob.id, [alice.id, carol.id]))]).toEqual([
      alice.id,
    ]);
    // The blocked user's send is refused (the messages module checks blocks with access.repo's hasBlocked).
    const send = await call({
      method: 'POST',
      url: '/api/messages',
      payload: { threadId, message: 'hi' },
      token: bob.token,
    });
    expect(send.statusCode).toBe(403);
  });
});

describe('GET /api/user/blocks and DELETE /api/user/block', () => {
  it('lists and removes blocks', async () => {
    expect((await call({ method: 'GET', url: '/api/user/blocks' })).statusCode).toBe(401);
    const list = await call({ method: 'GET', url: '/api/user/blocks', token: alice.token });
    expect(list.json()).toEqual({ users: [{ id: bob.id, username: 'bob', blockedAt: expect.any(String) }] });
    expect((await call({ method: 'GET', url: '/api/user/blocks', token: bob.token })).json()).toEqual({
      users: [],
    });
    expect(
      (await call({ method: 'DELETE', url: '/api/user/block?userId=x', token: alice.token })).body,
    ).toContain('userId');
    expect((await call({ method: 'DELETE', url: `/api/user/block?userId=${bob.id}` })).statusCode).toBe(401);
    const del = await call({ method: 'DELETE', url: `/api/user/block?userId=${bob.id}`, token: alice.token });
    expect(del.statusCode).toBe(204);
    expect(await db.select().from(blocks)).toEqual([]);
    expect([...(await app.services.access.users.blockersOf(bob.id, [alice.id]))]).toEqual([]);
  });
});

describe('suspended accounts', () => {
  it('a suspended user is refused at sign-in with 403 and their session no longer works', async () => {
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, carol.id));
    expect((await call({ method: 'GET', url: '/api/user/blocks', token: carol.token })).statusCode).toBe(401);
    const res = await app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { user: carol.username, password: carol.password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'This account is suspended.' });
  });
});
