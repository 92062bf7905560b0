import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { authHeader, createSignedInUser, createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app } = await createTestApp();
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;

const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

function open(url: string, opts: { token?: string; cookie?: string } = {}): Promise<Socket> {
  const socket = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: opts.token ? { token: opts.token } : {},
    extraHeaders: opts.cookie ? { cookie: opts.cookie } : undefined,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
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
    const a = await open(base);
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
    const sent = (await post(alice.token, '/api/messages', { threadId, message: 'second' })).json();
    expect(await inRoomA).toMatchObject({
      id: sent.id,
      message: 'second',
      senderId: alice.id,
      threadId,
      removed: false,
    });
    expect(await updated).toEqual({ threadId, mostRecentMessage: sent.id });

    const bBulk = next<{ messages: unknown[] }>(b, 'bulk_messages');
    b.emit('set_thread', threadId, null, bob.token);
    expect((await bBulk).messages).toHaveLength(2);
    const toA = next<{ message: string }>(a, 'message');
    const toB = next<{ message: string }>(b, 'message');
    await post(bob.token, '/api/messages', { threadId, message: 'reply' });
    expect((await toA).message).toBe('reply');
    expect((await toB).message).toBe('reply');
  });

  it('pages older history with startingMessageId and accepts the session cookie instead of a token', async () => {
    const s = await open(base, { cookie: `${SESSION_COOKIE}=${encodeURIComponent(bob.token)}` });
    const bulk = next<{ messages: { id: number }[]; startingId: number }>(s, 'bulk_messages');
    s.emit('set_thread', threadId, firstId + 1, null);
    expect(await bulk).toEqual({ startingId: firstId, messages: [expect.objectContaining({ id: firstId })] });
  });

  it("refuses a non-member's, a signed-out and a malformed set_thread, and sends them nothing after", async () => {
    const e = await open(base, { token: eve.token });
    const refused = next<{ error: string }>(e, 'error_message');
    e.emit('set_thread', threadId, null, eve.token);
    expect(await refused).toEqual({ error: 'Thread not found.', threadId });
    const anon = await open(base);
    const anonRefused = next<{ error: string }>(anon, 'error_message');
    anon.emit('set_thread', threadId, null, null);
    expect((await anonRefused).error).toBe('You need to be logged in to do that.');
    const bad = next<{ error: string }>(anon, 'error_message');
    anon.emit('set_thread', 'x', null, alice.token);
    expect((await bad).error).toMatch(/^threadId:/);

    const eveHears = arrives(e, 'message');
    const eveUpdated = arrives(e, 'thread_updated');
    const anonHears = arrives(anon, 'message');
    await post(alice.token, '/api/messages', { threadId, message: 'private' });
    expect(await eveHears).toBe(false);
    expect(await eveUpdated).toBe(false);
    expect(await anonHears).toBe(false);
  });

  it('leaves the previous thread room when another thread is set', async () => {
    const other = (
      await post(alice.token, '/api/messages/threads', { name: 'Group', userIds: `${bob.id},${eve.id}` })
    ).json().id;
    const a = await open(base);
    a.emit('set_thread', threadId, null, alice.token);
    await next(a, 'bulk_messages');
    a.emit('set_thread', other, null, alice.token);
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
    socket.emit('set_thread', trollThread, null, troll.token);
    await next(socket, 'bulk_messages');
    const reportId = (
      await post(alice.token, '/api/reports', { subjectType: 'user', subjectId: troll.id, reason: 'spam' })
    ).json().id;
    const closed = next<string>(socket, 'disconnect');
    const res = await post(mod.token, `/api/moderation/reports/${reportId}/actions`, { action: 'suspend' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });
});

// Two server processes (main.ts) on one PostgreSQL database and one Redis: a message posted
// through one reaches a socket connected to the other.
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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

    it('delivers a message posted through one process to a socket on the other', {
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
      const message = next<{ message: string; senderId: number }>(onTwo, 'message');
      const updated = next(onTwo, 'thread_updated');
      const sent = await api(one, t1, '/messages', { threadId: id, message: 'across processes' });
      expect(await message).toMatchObject({ message: 'across processes', senderId: p1.id, threadId: id });
      expect(await updated).toEqual({ threadId: id, mostRecentMessage: sent.id });
    });
  },
);

// Redis failing: unreachable at start (rooms stay in the process, with a warning), or gone later
// (publishes fail quietly, this process's sockets still get every message, nothing crashes).
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

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
