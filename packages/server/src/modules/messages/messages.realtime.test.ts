import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { threadMembers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser, loginAs, type TestUser } from '../../test/factories.ts';
import { createTestApp, freshDatabase, MemoryMailer, TestClock, testConfig } from '../../test/harness.ts';
import { freePort } from '../../test/server-process.ts';
import { SESSION_CHECK_MS } from './messages.realtime.ts';

const { app, mailer } = await createTestApp();
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;

const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

interface OpenOptions {
  token?: string;
  cookie?: string;
  origin?: string;
  authorization?: string;
}

function client(url: string, opts: OpenOptions = {}): Socket {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  if (opts.authorization) headers.authorization = opts.authorization;
  const socket = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: opts.token ? { token: opts.token } : {},
    extraHeaders: headers,
  });
  sockets.push(socket);
  return socket;
}

function open(url: string, opts: OpenOptions = {}): Promise<Socket> {
  const socket = client(url, opts);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The connect_error message of a handshake the server refuses (fails when it connects). */
function refusal(url: string, opts: OpenOptions = {}): Promise<string> {
  const socket = client(url, opts);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the handshake was accepted')));
    socket.once('connect_error', (err) => resolve(err.message));
  });
}

/** The next `event` on the socket (fails after `ms`). */
function next<T = unknown>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Whether `event` arrives within `ms`. */
async function arrives(socket: Socket, event: string, ms = 300): Promise<boolean> {
  return next(socket, event, ms).then(
    () => true,
    () => false,
  );
}

/**
 * Watches for the server closing the socket. Call the answer right after the request that ends the
 * session has answered: it resolves with the reason once the socket is closed, and fails when that has
 * not happened within a second of the answer (the request's own work, argon2 say, is not counted).
 */
function closedWithinASecond(socket: Socket): () => Promise<{ reason: string }> {
  let reason: string | null = null;
  const closed = new Promise<void>((resolve) =>
    socket.once('disconnect', (why) => {
      reason = why;
      resolve();
    }),
  );
  return async () => {
    await Promise.race([closed, sleep(1000)]);
    if (reason === null) throw new Error('the socket was not closed within a second of the answer');
    return { reason };
  };
}

/** Collects every `event` the socket receives from now on. */
function collect<T = unknown>(socket: Socket, event: string): T[] {
  const got: T[] = [];
  socket.on(event, (payload: T) => got.push(payload));
  return got;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Signed = TestUser & { token: string };
let alice: Signed;
let bob: Signed;
let eve: Signed;
let threadId: number;
let firstId: number;

const post = (token: string, url: string, payload: object) =>
  app.inject({ method: 'POST', url, payload, headers: authHeader(token) });

beforeAll(async () => {
  await createUser(app.ctx.db, { username: 'owner' });
  alice = await createSignedInUser(app, { username: 'alice' });
  bob = await createSignedInUser(app, { username: 'bob' });
  eve = await createSignedInUser(app, { username: 'eve' });
  threadId = (
    await post(alice.token, '/api/messages/threads', { name: null, userIds: String(bob.id) })
  ).json().id;
  firstId = (await post(alice.token, '/api/messages', { threadId, message: 'first' })).json().id;
});

describe('the messaging socket', () => {
  it('answers set_thread with the history and pushes a posted message to both members', async () => {
    const a = await open(base, { token: alice.token });
    const b = await open(base, { token: bob.token });
    const bulk = next<{ messages: { id: number; message: string }[]; startingId: number }>(
      a,
      'bulk_messages',
    );
    a.emit('set_thread', threadId, null, alice.token);
    expect(await bulk).toMatchObject({ startingId: firstId, messages: [{ id: firstId, message: 'first' }] });
    // bob has not opened the thread: only his user room hears of it; then he opens it too.
    const updated = next(b, 'thread_updated');
    const inRoomA = next<{ id: number; message: string; senderId: number }>(a, 'message');
    // One frame a socket: with the thread open, the message stands for its thread_updated.
    const updatedA = arrives(a, 'thread_updated');
    const sent = (await post(alice.token, '/api/messages', { threadId, message: 'second' })).json();
    expect(await inRoomA).toMatchObject({
      id: sent.id,
      message: 'second',
      senderId: alice.id,
      threadId,
      removed: false,
    });
    expect(await updated).toEqual({ threadId, mostRecentMessage: sent.id });
    expect(await updatedA).toBe(false);

    const bBulk = next<{ messages: unknown[] }>(b, 'bulk_messages');
    b.emit('set_thread', threadId, null, null);
    expect((await bBulk).messages).toHaveLength(2);
    const toA = next<{ message: string }>(a, 'message');
    const toB = next<{ message: string }>(b, 'message');
    await post(bob.token, '/api/messages', { threadId, message: 'reply' });
    expect((await toA).message).toBe('reply');
    expect((await toB).message).toBe('reply');
  });

  it('pages older history with startingMessageId, signed in by the cookie of a page of this site', async () => {
    const s = await open(base, {
      cookie: `${SESSION_COOKIE}=${encodeURIComponent(bob.token)}`,
      origin: base,
    });
    const bulk = next<{ messages: { id: number }[]; startingId: number }>(s, 'bulk_messages');
    s.emit('set_thread', threadId, firstId + 1, null);
    expect(await bulk).toEqual({ startingId: firstId, messages: [expect.objectContaining({ id: firstId })] });
  });

  it("refuses a non-member's and a malformed set_thread, and another session's token, and sends them nothing after", async () => {
    const e = await open(base, { token: eve.token });
    const refused = next<{ error: string }>(e, 'error_message');
    e.emit('set_thread', threadId, null, eve.token);
    expect(await refused).toEqual({ error: 'Thread not found.', threadId });
    const bad = next<{ error: string }>(e, 'error_message');
    e.emit('set_thread', 'x', null, null);
    expect((await bad).error).toMatch(/^threadId:/);
    // A socket acts as the session it signed in with: alice's token does not make eve's socket alice.
    const other = next<{ error: string }>(e, 'error_message');
    e.emit('set_thread', threadId, null, alice.token);
    expect(await other).toEqual({ error: 'token: not the session this connection signed in with', threadId });

    const eveHears = arrives(e, 'message');
    const eveUpdated = arrives(e, 'thread_updated');
    await post(alice.token, '/api/messages', { threadId, message: 'private' });
    expect(await eveHears).toBe(false);
    expect(await eveUpdated).toBe(false);
  });

  it('leaves the previous thread room when another thread is set', async () => {
    const other = (
      await post(alice.token, '/api/messages/threads', { name: 'Group', userIds: `${bob.id},${eve.id}` })
    ).json().id;
    const a = await open(base, { token: alice.token });
    a.emit('set_thread', threadId, null, null);
    await next(a, 'bulk_messages');
    a.emit('set_thread', other, null, null);
    await next(a, 'bulk_messages');
    const hearsOld = arrives(a, 'message');
    await post(bob.token, '/api/messages', { threadId, message: 'old room' });
    expect(await hearsOld).toBe(false);
    const hearsNew = next<{ message: string }>(a, 'message');
    await post(eve.token, '/api/messages', { threadId: other, message: 'new room' });
    expect((await hearsNew).message).toBe('new room');
  });

  it("closes a suspended user's sockets at once", async () => {
    const troll = await createSignedInUser(app, { username: 'troll' });
    const mod = await createSignedInUser(app, { username: 'mod', roles: ['Moderator'] });
    const trollThread = (
      await post(troll.token, '/api/messages/threads', { name: null, userIds: String(alice.id) })
    ).json().id;
    const socket = await open(base, { token: troll.token });
    socket.emit('set_thread', trollThread, null, null);
    await next(socket, 'bulk_messages');
    const reportId = (
      await post(alice.token, '/api/reports', { subjectType: 'user', subjectId: troll.id, reason: 'spam' })
    ).json().id;
    const closed = closedWithinASecond(socket);
    const res = await post(mod.token, `/api/moderation/reports/${reportId}/actions`, { action: 'suspend' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await closed()).reason).toBe('io server disconnect');
    expect(await refusal(base, { token: troll.token })).toBe('You need to be logged in to do that.');
  });
});

describe('the handshake', () => {
  const cookie = () => `${SESSION_COOKIE}=${encodeURIComponent(bob.token)}`;

  it('refuses a socket without a live session before any event', async () => {
    const anonymous = 'You need to be logged in to do that.';
    expect(await refusal(base)).toBe(anonymous);
    expect(await refusal(base, { token: 'not-a-session' })).toBe(anonymous);
    expect(await refusal(base, { token: 'x'.repeat(300) })).toBe(anonymous);
    expect(await refusal(base, { cookie: `${SESSION_COOKIE}=bogus`, origin: base })).toBe(anonymous);
    // The session is a token sent on purpose: auth.token or an Authorization header.
    const byHeader = await open(base, { authorization: `Bearer ${bob.token}` });
    expect(byHeader.connected).toBe(true);
  });

  it('takes the cookie only from a page of this site: the Origin names PUBLIC_URL or the host asked', async () => {
    const { publicUrl } = app.ctx.config;
    expect((await open(base, { cookie: cookie(), origin: base })).connected).toBe(true);
    expect((await open(base, { cookie: cookie(), origin: publicUrl })).connected).toBe(true);
    const port = new URL(base).port;
    for (const origin of [
      `http://127.0.0.1:${Number(port) + 1}`,
      `http://evil.127.0.0.1.nip.io:${port}`,
      'https://attacker.example',
      'null',
    ]) {
      expect(await refusal(base, { cookie: cookie(), origin }), origin).toBe(
        'This site does not accept connections from that page.',
      );
      // A token does not make another site's page welcome either.
      expect(await refusal(base, { token: bob.token, origin }), origin).toBe(
        'This site does not accept connections from that page.',
      );
    }
    // No Origin: not a browser, so no ambient cookie; a token works (the tests above).
    expect(await refusal(base, { cookie: cookie() })).toBe('You need to be logged in to do that.');
  });

  it('caps the open sockets of an account (20) and of an address (50)', async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await sleep(200);
    const many = await createSignedInUser(app);
    const mine = await Promise.all(Array.from({ length: 20 }, () => open(base, { token: many.token })));
    expect(await refusal(base, { token: many.token })).toBe('Too many connections for this account.');
    // Another account from the same address still connects, until the address has 50.
    const more = await createSignedInUser(app);
    const third = await createSignedInUser(app);
    await Promise.all(Array.from({ length: 20 }, () => open(base, { token: more.token })));
    await Promise.all(Array.from({ length: 10 }, () => open(base, { token: third.token })));
    expect(await refusal(base, { token: third.token })).toBe('Too many connections from this address.');
    // A closed socket frees its place.
    mine[0]?.disconnect();
    await sleep(200);
    expect((await open(base, { token: third.token })).connected).toBe(true);
    for (const s of sockets.splice(0)) s.disconnect();
    await sleep(200);
  });
});

describe('a socket ends with its session', () => {
  /** A signed-in user with a socket in their thread with alice. */
  async function inThread(user?: Signed) {
    const who = user ?? (await createSignedInUser(app));
    const id = (
      await post(alice.token, '/api/messages/threads', { name: null, userIds: String(who.id) })
    ).json().id as number;
    const socket = await open(base, { token: who.token });
    socket.emit('set_thread', id, null, null);
    await next(socket, 'bulk_messages');
    return { who, id, socket };
  }

  /** Nothing of the thread reaches the socket any more. */
  async function hearsNothing(socket: Socket, id: number) {
    const heard = [...['message', 'thread_updated'].map((e) => arrives(socket, e, 400))];
    expect(
      (await post(alice.token, '/api/messages', { threadId: id, message: 'after the end' })).statusCode,
    ).toBe(200);
    expect(await Promise.all(heard)).toEqual([false, false]);
  }

  it('sign-out closes the sockets of that session only', async () => {
    const { who, id, socket } = await inThread();
    const otherSession = await loginAs(app, who.username, who.password);
    const second = await open(base, { token: otherSession });
    second.emit('set_thread', id, null, null);
    await next(second, 'bulk_messages');
    const closed = closedWithinASecond(socket);
    const res = await app.inject({ method: 'DELETE', url: '/api/token', headers: authHeader(who.token) });
    expect(res.statusCode).toBe(204);
    expect((await closed()).reason).toBe('io server disconnect');
    const stillHears = next<{ message: string }>(second, 'message');
    await post(alice.token, '/api/messages', { threadId: id, message: 'to the other session' });
    expect((await stillHears).message).toBe('to the other session');
  });

  it('sign-out everywhere (DELETE /api/sessions) closes every socket of the account', async () => {
    const { who, id, socket } = await inThread();
    const closed = closedWithinASecond(socket);
    const res = await app.inject({ method: 'DELETE', url: '/api/sessions', headers: authHeader(who.token) });
    expect(res.statusCode).toBe(204);
    expect((await closed()).reason).toBe('io server disconnect');
    await hearsNothing(socket, id);
    expect(await refusal(base, { token: who.token })).toBe('You need to be logged in to do that.');
  });

  it("a password change closes every socket, this browser's too, which signs in again with the new token", async () => {
    const { who, id, socket } = await inThread();
    const closed = closedWithinASecond(socket);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: authHeader(who.token),
      payload: { currentPassword: who.password, newPassword: 'a brand new password' },
    });
    expect(res.statusCode).toBe(200);
    expect((await closed()).reason).toBe('io server disconnect');
    expect(await refusal(base, { token: who.token })).toBe('You need to be logged in to do that.');
    const again = await open(base, { token: res.json().token });
    again.emit('set_thread', id, null, null);
    expect((await next<{ messages: unknown[] }>(again, 'bulk_messages')).messages).toEqual([]);
  });

  it('a password reset closes every socket of the account', async () => {
    const { who, socket } = await inThread();
    await app.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { username: who.username, email: who.email },
    });
    let link = '';
    for (let i = 0; i < 50 && !link; i++) {
      link = mailer.lastTo(who.email)?.link ?? '';
      if (!link) await sleep(20);
    }
    const token = new URL(link).searchParams.get('token');
    const closed = closedWithinASecond(socket);
    const res = await app.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { token, password: 'reset to something new' },
    });
    expect(res.statusCode).toBe(204);
    expect((await closed()).reason).toBe('io server disconnect');
  });

  it('account deletion closes every socket of the account', async () => {
    const { who, id, socket } = await inThread();
    const closed = closedWithinASecond(socket);
    const res = await app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: authHeader(who.token),
      payload: { password: who.password, content: 'delete' },
    });
    expect(res.statusCode).toBe(204);
    expect((await closed()).reason).toBe('io server disconnect');
    await hearsNothing(socket, id);
  });

  it('removal from a thread: a socket still in its room hears nothing more', async () => {
    const { who, id, socket } = await inThread();
    await app.ctx.db
      .delete(threadMembers)
      .where(and(eq(threadMembers.threadId, id), eq(threadMembers.userId, who.id)));
    await hearsNothing(socket, id);
    const refused = next<{ error: string }>(socket, 'error_message');
    socket.emit('set_thread', id, null, null);
    expect((await refused).error).toBe('Thread not found.');
  });
});

describe('limits on what one client may send (rate limits on)', async () => {
  const limitedApp = await createTestApp({ rateLimit: true });
  const { clock } = limitedApp;
  await limitedApp.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(limitedApp.app.server.address() as net.AddressInfo).port}`;
  let user: Signed;
  let id: number;
  beforeAll(async () => {
    await createUser(limitedApp.app.ctx.db, { username: 'owner' });
    user = await createSignedInUser(limitedApp.app);
    const other = await createSignedInUser(limitedApp.app);
    id = (
      await limitedApp.app.inject({
        method: 'POST',
        url: '/api/messages/threads',
        payload: { name: null, userIds: String(other.id) },
        headers: authHeader(user.token),
      })
    ).json().id;
  });
  // The app's clock stands still in tests: each test starts with full buckets.
  beforeEach(() => clock.advance(60_000));

  it('answers 20 set_thread at once, drops the rest with an error, and closes a socket that keeps on', async () => {
    const s = await open(url, { token: user.token });
    const pages = collect(s, 'bulk_messages');
    const errors = collect<{ error: string }>(s, 'error_message');
    for (let i = 0; i < 25; i++) s.emit('set_thread', id, null, null);
    await sleep(500);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual(
      Array.from({ length: 5 }, () => ({ error: 'Too many requests: slow down.', threadId: id })),
    );
    // 20 dropped events in all, then the socket is closed.
    const closed = next<string>(s, 'disconnect');
    for (let i = 0; i < 16; i++) s.emit('set_thread', id, null, null);
    expect(await closed).toBe('io server disconnect');
    expect(errors).toHaveLength(21);
  });

  it('counts the set_thread of all the sockets of an account together (40 at once)', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => open(url, { token: user.token })));
    const errors = [a, b, c].map((s) => collect<{ error: string }>(s as Socket, 'error_message'));
    for (let i = 0; i < 20; i++) a?.emit('set_thread', id, null, null);
    for (let i = 0; i < 20; i++) b?.emit('set_thread', id, null, null);
    await sleep(300);
    c?.emit('set_thread', id, null, null);
    await sleep(300);
    expect(errors.map((e) => e.length)).toEqual([0, 0, 1]);
  });

  it('drops an event the server does not know, answering its acknowledgement', async () => {
    const s = await open(url, { token: user.token });
    const ack = await new Promise((resolve) => s.emit('delete_everything', 1, resolve));
    expect(ack).toEqual({ error: 'delete_everything: not an event of this server' });
    const error = next(s, 'error_message');
    s.emit('whatever');
    expect(await error).toEqual({ error: 'whatever: not an event of this server', threadId: null });
    const inherited = next(s, 'error_message');
    s.emit('constructor', 5);
    expect(await inherited).toEqual({ error: 'constructor: not an event of this server', threadId: 5 });
  });

  it('closes a connection that sends a packet over 4 KB', async () => {
    const s = await open(url, { token: user.token });
    const closed = next<string>(s, 'disconnect');
    s.emit('set_thread', id, null, 'x'.repeat(5000));
    expect(await closed).toMatch(/^transport (close|error)$/);
  });

  it('refuses handshakes from an address past 20 at once, before reading any session', async () => {
    const reasons: string[] = [];
    for (let i = 0; i < 22; i++) reasons.push(await refusal(url, { token: `bogus-${i}` }));
    expect(reasons.slice(0, 20)).toEqual(Array(20).fill('You need to be logged in to do that.'));
    expect(reasons.slice(20)).toEqual(['Too many requests: slow down.', 'Too many requests: slow down.']);
    expect(await refusal(url, { token: user.token })).toBe('Too many requests: slow down.');
    clock.advance(1000);
    expect((await open(url, { token: user.token })).connected).toBe(true);
  });

  it('closes a socket whose session expired or went idle: at its next event, or at the periodic check', async () => {
    const idle = await open(url, { token: user.token });
    const active = await open(url, { token: user.token });
    // SESSION_IDLE_DAYS (14) without a request: the session ended.
    clock.advance(15 * 24 * 60 * 60 * 1000);
    const activeClosed = next<string>(active, 'disconnect');
    active.emit('set_thread', id, null, null);
    expect(await activeClosed).toBe('io server disconnect');
    const idleClosed = next<string>(idle, 'disconnect');
    await limitedApp.app.services.hub.checkSessions?.();
    expect(await idleClosed).toBe('io server disconnect');
    expect(SESSION_CHECK_MS).toBeLessThanOrEqual(15_000);
  });
});

// Two app instances on one database, each with its own socket.io server, joined by the Redis
// adapter on a Redis of their own: what ends a session on one closes its sockets on the other.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

async function startRedis(): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    await sleep(100);
  }
  return { port, process: child };
}

describe.skipIf(!hasRedisServer)(
  'two socket.io servers joined by Redis (needs the redis-server program)',
  async () => {
    const redis = await startRedis();
    const database = await freshDatabase();
    const clock = new TestClock();
    const mailer = new MemoryMailer();
    const configs = [1, 2].map(() => testConfig({ redisUrl: `redis://127.0.0.1:${redis.port}` }));
    const [one, two] = [
      await buildApp(configs[0] as Config, { database, clock, mailer, logger: false }),
      await buildApp(configs[1] as Config, { database, clock, mailer, logger: false }),
    ];
    await one.listen({ port: 0, host: '127.0.0.1' });
    await two.listen({ port: 0, host: '127.0.0.1' });
    const twoUrl = `http://127.0.0.1:${(two.server.address() as net.AddressInfo).port}`;
    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await one.close();
      await two.close();
      await database.close();
      redis.process.kill('SIGKILL');
      for (const config of configs) fs.rmSync(config.dataDir, { recursive: true, force: true });
    });
    const call = (method: 'POST' | 'DELETE' | 'PUT', url: string, token: string, payload?: object) =>
      one.inject({ method, url, payload, headers: authHeader(token) });
    let sender: Signed;
    beforeAll(async () => {
      await createUser(database.db, { username: 'owner' });
      sender = await createSignedInUser(one);
    });

    /** A user signed in through process one, with a socket on process two in a thread with `sender`. */
    async function onTwo() {
      const who = await createSignedInUser(one);
      const id = (
        await call('POST', '/api/messages/threads', sender.token, { name: null, userIds: String(who.id) })
      ).json().id as number;
      const socket = await open(twoUrl, { token: who.token });
      socket.emit('set_thread', id, null, null);
      await next(socket, 'bulk_messages');
      return { who, id, socket };
    }

    it('delivers a message posted on one to a socket on the other', async () => {
      const { who, id, socket } = await onTwo();
      // Another socket of the same person on process two, without the thread open.
      const elsewhere = await open(twoUrl, { token: who.token });
      const heard = next<{ message: string }>(socket, 'message');
      const updated = next(elsewhere, 'thread_updated');
      const sent = (
        await call('POST', '/api/messages', sender.token, { threadId: id, message: 'across' })
      ).json();
      expect((await heard).message).toBe('across');
      expect(await updated).toEqual({ threadId: id, mostRecentMessage: sent.id });
    });

    it('sign-out everywhere on one closes the socket on the other within a second', async () => {
      const { who, id, socket } = await onTwo();
      const closed = closedWithinASecond(socket);
      expect((await call('DELETE', '/api/sessions', who.token)).statusCode).toBe(204);
      expect((await closed()).reason).toBe('io server disconnect');
      const heard = arrives(socket, 'message', 400);
      await call('POST', '/api/messages', sender.token, { threadId: id, message: 'after' });
      expect(await heard).toBe(false);
    });

    it('sign-out on one closes the socket of that session on the other', async () => {
      const { who, socket } = await onTwo();
      const closed = closedWithinASecond(socket);
      expect((await call('DELETE', '/api/token', who.token)).statusCode).toBe(204);
      expect((await closed()).reason).toBe('io server disconnect');
    });

    it('a password change on one closes the socket on the other', async () => {
      const { who, socket } = await onTwo();
      const closed = closedWithinASecond(socket);
      const res = await call('PUT', '/api/user/password', who.token, {
        currentPassword: who.password,
        newPassword: 'another fresh password',
      });
      expect(res.statusCode).toBe(200);
      expect((await closed()).reason).toBe('io server disconnect');
    });

    it('account deletion on one closes the socket on the other', async () => {
      const { who, socket } = await onTwo();
      const closed = closedWithinASecond(socket);
      const res = await call('DELETE', '/api/user', who.token, { password: who.password, content: 'delete' });
      expect(res.statusCode).toBe(204);
      expect((await closed()).reason).toBe('io server disconnect');
    });

    it('suspension on one closes the socket on the other', async () => {
      const { who, socket } = await onTwo();
      const mod = await createSignedInUser(one, { roles: ['Moderator'] });
      const reportId = (
        await call('POST', '/api/reports', sender.token, {
          subjectType: 'user',
          subjectId: who.id,
          reason: 'spam',
        })
      ).json().id;
      const closed = closedWithinASecond(socket);
      const res = await call('POST', `/api/moderation/reports/${reportId}/actions`, mod.token, {
        action: 'suspend',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await closed()).reason).toBe('io server disconnect');
    });

    it('removal from a thread: a socket on the other process hears nothing more of it', async () => {
      const { who, id, socket } = await onTwo();
      await database.db
        .delete(threadMembers)
        .where(and(eq(threadMembers.threadId, id), eq(threadMembers.userId, who.id)));
      const heard = [arrives(socket, 'message', 400), arrives(socket, 'thread_updated', 400)];
      await call('POST', '/api/messages', sender.token, { threadId: id, message: 'not for the removed' });
      expect(await Promise.all(heard)).toEqual([false, false]);
    });
  },
);

// Two server processes (main.ts) on one PostgreSQL database and one Redis: a message posted
// through one reaches a socket connected to the other.
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.skipIf(!adminUrl)(
  'two server processes (needs TEST_DATABASE_URL and Redis; skipped without TEST_DATABASE_URL)',
  () => {
    const children: ChildProcess[] = [];
    const name = `mesmer_rt_${process.pid}_${Date.now()}`;
    const dataDirs: string[] = [];
    let dbUrl = '';

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl as string);
      url.pathname = `/${name}`;
      dbUrl = url.toString();
    });

    afterAll(async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null) return resolve(null);
              child.once('exit', resolve);
              child.kill('SIGTERM');
            }),
        ),
      );
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    async function startServer(): Promise<string> {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-rt-'));
      dataDirs.push(dataDir);
      const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../main.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: dbUrl,
          REDIS_URL: redisUrl,
          SEED_DEMO: 'false',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          RATE_LIMIT: 'false',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 150; i++) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        const up = await fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) return url;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('server did not start');
    }

    it('delivers a message posted through one process to a socket on the other, and closes it when signed out there', {
      timeout: 60_000,
    }, async () => {
      // One after the other: the first migrates the new database.
      const one = await startServer();
      const two = await startServer();
      const database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: 'memory://' });
      const [p1, p2] = [await createUser(database.db), await createUser(database.db)];
      await database.close();
      const login = async (url: string, user: TestUser) => {
        const res = await fetch(`${url}/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: user.username, password: user.password, timezone: 'UTC' }),
        });
        return ((await res.json()) as { token: string }).token;
      };
      const t1 = await login(one, p1);
      const t2 = await login(two, p2);
      const api = (url: string, token: string, route: string, body: object) =>
        fetch(`${url}/api${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authHeader(token) },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ id: number }>);
      const { id } = await api(one, t1, '/messages/threads', { name: null, userIds: String(p2.id) });

      const onTwo = await open(two, { token: t2 });
      const bulk = next(onTwo, 'bulk_messages');
      onTwo.emit('set_thread', id, null, t2);
      await bulk;
      // Another socket of p2 on process two, without the thread open, hears thread_updated.
      const listOnTwo = await open(two, { token: t2 });
      const message = next<{ message: string; senderId: number }>(onTwo, 'message');
      const updated = next(listOnTwo, 'thread_updated');
      const sent = await api(one, t1, '/messages', { threadId: id, message: 'across processes' });
      expect(await message).toMatchObject({ message: 'across processes', senderId: p1.id, threadId: id });
      expect(await updated).toEqual({ threadId: id, mostRecentMessage: sent.id });
      // Signing p2 out everywhere through process one closes their socket on process two.
      const closed = closedWithinASecond(onTwo);
      const out = await fetch(`${one}/api/sessions`, { method: 'DELETE', headers: authHeader(t2) });
      expect(out.status).toBe(204);
      expect((await closed()).reason).toBe('io server disconnect');
    });
  },
);

// Redis failing: unreachable at start (rooms stay in the process, with a warning), or gone later
// (publishes fail quietly, this process's sockets still get every message, nothing crashes).

describe.skipIf(!hasRedisServer)('when Redis is away (needs the redis-server program)', async () => {
  const redisPort = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(redisPort, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  afterAll(() => {
    redis.kill('SIGKILL');
  });
  const logs: string[] = [];
  const logStream = { write: (line: string) => logs.push(line) };
  const withRedis = await createTestApp(
    { redisUrl: `redis://127.0.0.1:${redisPort}`, logLevel: 'warn' },
    { logStream },
  );
  const deadPort = await freePort();
  const noRedis = await createTestApp(
    { redisUrl: `redis://127.0.0.1:${deadPort}`, logLevel: 'warn' },
    { logStream },
  );

  async function roundTrip(target: typeof app) {
    await target.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(target.server.address() as net.AddressInfo).port}`;
    const a = await createSignedInUser(target);
    const b = await createSignedInUser(target);
    const call = (token: string, route: string, payload: object) =>
      target.inject({ method: 'POST', url: `/api${route}`, payload, headers: authHeader(token) });
    const id = (await call(a.token, '/messages/threads', { name: null, userIds: String(b.id) })).json().id;
    const s = await open(url, { token: b.token });
    s.emit('set_thread', id, null, b.token);
    await next(s, 'bulk_messages');
    const got = next<{ message: string }>(s, 'message');
    expect((await call(a.token, '/messages', { threadId: id, message: 'still here' })).statusCode).toBe(200);
    expect((await got).message).toBe('still here');
  }

  it('keeps rooms in the process when Redis cannot be reached at start, with a warning', async () => {
    expect(logs.some((l) => l.includes('realtime: Redis unreachable'))).toBe(true);
    await roundTrip(noRedis.app);
  });

  it('delivers on this process without an unhandled rejection once Redis goes away', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      await roundTrip(withRedis.app);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
