// A server process whose dependencies fail while it serves: PostgreSQL and Redis are reached through a
// TCP proxy the test cuts and restores (the shared servers themselves are never stopped), and SIGTERM
// while a request and a socket are open.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { seedRoles } from './db/seed/roles.ts';
import { createUser, type TestUser } from './test/factories.ts';
import { testDbKind } from './test/harness.ts';
import {
  createTempDatabase,
  freePort,
  openSocket,
  type ServerProcess,
  startServerProcess,
  type TempDatabase,
} from './test/server-process.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisBase = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A Redis database of this file's own, emptied first (cluster.test.ts has 7).
const REDIS_DB = 9;

interface TcpProxy {
  port: number;
  /** Ends every connection through it and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
}

/** Forwards connections on a free local port to `target`; what a network outage looks like to the server. */
async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
      socket.pipe(other);
    }
  });
  const port = await freePort();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen();
  return {
    port,
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: listen,
  };
}

const json = (res: Response) => res.json() as Promise<Record<string, unknown>>;
const call = (base: string, method: string, route: string, token?: string, body?: object) =>
  fetch(`${base}/api${route}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
const login = async (base: string, user: TestUser) => {
  const res = await call(base, 'POST', '/token', undefined, {
    user: user.username,
    password: user.password,
    timezone: 'UTC',
  });
  expect(res.status).toBe(200);
  return (await json(res)).token as string;
};

/** Calls `check` until it answers true (at most `ms`). */
async function eventually(check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!adminUrl || testDbKind !== 'postgres')(
  'faults while serving (runs in the PostgreSQL pass: needs TEST_DATABASE_URL and Redis)',
  { timeout: 120_000 },
  () => {
    let database: TempDatabase;
    let listener: TestUser;
    let creator: TestUser;
    const servers: ServerProcess[] = [];
    const sockets: Socket[] = [];

    beforeAll(async () => {
      database = await createTempDatabase(adminUrl as string, 'mesmer_faults');
      // Migrates the new database; the users go in directly.
      const db = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
      await seedRoles(db.db);
      await createUser(db.db, { username: 'owner' });
      listener = await createUser(db.db, { username: 'listener' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
    });

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database?.drop();
    });

    it('answers 503 at once while PostgreSQL is unreachable, and serves again when it is back, without a restart', async () => {
      const postgres = new URL(database.url);
      const proxy = await startTcpProxy({ host: postgres.hostname, port: Number(postgres.port || 5432) });
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const server = await startServerProcess({ DATABASE_URL: proxied.toString(), RATE_LIMIT: 'false' });
      servers.push(server);
      const token = await login(server.url, listener);
      expect((await json(await call(server.url, 'GET', '/user', token))).user).toMatchObject({
        username: listener.username,
      });

      await proxy.cut();
      for (const [method, route, body] of [
        ['GET', '/user', undefined],
        ['POST', '/playlists', { name: 'During the outage', expLevel: 1 }],
      ] as const) {
        const started = Date.now();
        const res = await call(server.url, method, route, token, body);
        expect(Date.now() - started, `${method} ${route}`).toBeLessThan(5000);
        expect(res.status, `${method} ${route}`).toBe(503);
        expect(await json(res)).toEqual({ error: 'The database is unavailable. Try again shortly.' });
      }
      const health = await call(server.url, 'GET', '/health');
      expect(health.status).toBe(503);
      expect(await json(health)).toMatchObject({
        status: 'unavailable',
        dependencies: { database: 'down', redis: 'not configured', storage: 'up' },
      });

      await proxy.restore();
      await eventually(async () => (await call(server.url, 'GET', '/health')).status === 200);
      expect((await json(await call(server.url, 'GET', '/user', token))).user).toMatchObject({
        username: listener.username,
      });
      expect(server.child.exitCode).toBeNull();
      await proxy.cut();
    });

    it('keeps serving on this process alone while Redis is unreachable (rate limits, messages), with one warning each, and uses Redis again when it is back', async () => {
      const direct = new Redis(`${redisBase}/${REDIS_DB}`);
      await direct.flushdb();
      const redisUrl = new URL(redisBase);
      const proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
      const server = await startServerProcess({
        DATABASE_URL: database.url,
        REDIS_URL: `redis://127.0.0.1:${proxy.port}/${REDIS_DB}`,
        RATE_LIMIT: 'true',
      });
      servers.push(server);
      const countedInRedis = async () => (await direct.keys('mesmer-rate-limit:*')).length;
      const wrongLogin = () =>
        call(server.url, 'POST', '/token', undefined, {
          user: listener.username,
          password: 'not the password',
          timezone: 'UTC',
        });

      // Redis up: a failed sign-in is counted there.
      expect((await wrongLogin()).status).toBe(401);
      expect(await countedInRedis()).toBeGreaterThan(0);
      const creatorToken = await login(server.url, creator);
      const listenerToken = await login(server.url, listener);
      const thread = await json(
        await call(server.url, 'POST', '/messages/threads', creatorToken, {
          name: null,
          userIds: String(listener.id),
        }),
      );
      const socket = await openSocket(server.url, listenerToken);
      sockets.push(socket);
      const history = new Promise((resolve) => socket.once('bulk_messages', resolve));
      socket.emit('set_thread', thread.id, null, listenerToken);
      await history;
      const delivered = async (text: string) => {
        const arrived = new Promise<{ message: string }>((resolve) => socket.once('message', resolve));
        const sent = await call(server.url, 'POST', '/messages', creatorToken, {
          threadId: thread.id,
          message: text,
        });
        expect(sent.status).toBe(200);
        return (await arrived).message;
      };
      expect(await delivered('before')).toBe('before');

      await proxy.cut();
      await direct.flushdb();
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        expect((await wrongLogin()).status).toBe(401);
        expect(Date.now() - started).toBeLessThan(3000);
      }
      expect(await countedInRedis()).toBe(0);
      expect(await delivered('during')).toBe('during');
      expect(await delivered('during again')).toBe('during again');
      expect((await call(server.url, 'GET', '/user', listenerToken)).status).toBe(200);
      const health = await call(server.url, 'GET', '/health');
      expect(health.status).toBe(503);
      expect((await json(health)).dependencies).toEqual({ database: 'up', redis: 'down', storage: 'up' });
      // The adapter publishes without waiting: its failure is logged a moment after the delivery.
      const warnings = (text: string) => server.output().split(text).length - 1;
      await eventually(async () => warnings('realtime: Redis publish failed') > 0);
      expect(warnings('rate-limit store (Redis) unavailable')).toBe(1);

      await proxy.restore();
      await eventually(async () => (await call(server.url, 'GET', '/health')).status === 200);
      await eventually(async () => {
        expect((await wrongLogin()).status).toBe(401);
        return (await countedInRedis()) > 0;
      });
      expect(await delivered('after')).toBe('after');
      // One warning each for the whole outage, not one per request.
      expect(warnings('rate-limit store (Redis) unavailable')).toBe(1);
      expect(warnings('realtime: Redis publish failed')).toBe(1);
      await direct.quit();
      await proxy.cut();
    });

    it('on SIGTERM finishes the request in flight, ends sockets, refuses new connections and exits 0', async () => {
      const server = await startServerProcess({ DATABASE_URL: database.url, RATE_LIMIT: 'false' });
      servers.push(server);
      const token = await login(server.url, creator);
      const socket = await openSocket(server.url, token);
      sockets.push(socket);
      const socketEnded = new Promise<string>((resolve) => socket.once('disconnect', resolve));

      // One upload chunk, of which half is sent before the signal and half after.
      const chunk = Buffer.alloc(2 * 1024 * 1024, 7);
      const form = new FormData();
      const fields = {
        uuid: randomUUID(),
        fileName: 'Drain.wav',
        secure: false,
        chunkIndex: 0,
        totalChunks: 1,
      };
      for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
      form.append('chunkSize', String(chunk.length));
      form.append('fileSize', String(chunk.length));
      form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
      const encoded = new Response(form);
      const payload = Buffer.from(await encoded.arrayBuffer());
      const request = http.request(`${server.url}/api/files/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': encoded.headers.get('content-type') as string,
          'content-length': payload.length,
        },
      });
      const answered = new Promise<{ status?: number; body: string }>((resolve, reject) => {
        request.on('error', reject).on('response', (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode, body }));
        });
      });
      request.write(payload.subarray(0, payload.length / 2));
      await new Promise((r) => setTimeout(r, 300));

      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      expect(await socketEnded).toBe('io server disconnect');
      await new Promise((r) => setTimeout(r, 300));
      const fresh = await fetch(`${server.url}/api/health`).then(
        (res) => `answered ${res.status}`,
        (err: Error & { cause?: { code?: string } }) => err.cause?.code,
      );
      expect(fresh).toBe('ECONNREFUSED');

      request.end(payload.subarray(payload.length / 2));
      const res = await answered;
      expect(res.status, res.body).toBe(200);
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5000);
    });
  },
);
