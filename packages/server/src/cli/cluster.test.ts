// Two server processes on one PostgreSQL database, the local Redis and a local S3-compatible server,
// behind the round-robin proxy of `npm run start:cluster`: whatever process a request lands on, the
// answer is the same as with one process.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { sineFile } from '../test/audio-fixtures.ts';
import { createUser, type TestUser } from '../test/factories.ts';
import { testDbKind } from '../test/harness.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import {
  createTempDatabase,
  type ServerProcess,
  startServerProcess,
  type TempDatabase,
} from '../test/server-process.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
// Rate-limit counts outlive a run in Redis (and a fresh database gives the same user ids each time):
// this file has a Redis database of its own, emptied first.
const redisUrl = `${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}/7`;

describe.skipIf(!adminUrl || testDbKind !== 'postgres')(
  'two processes behind the round-robin proxy (runs in the PostgreSQL pass: needs TEST_DATABASE_URL and Redis)',
  { timeout: 120_000 },
  () => {
    let database: TempDatabase;
    let s3: TestS3Server;
    let one: ServerProcess;
    let two: ServerProcess;
    let proxy: RoundRobinProxy;
    let listener: TestUser;
    let friend: TestUser;
    let creator: TestUser;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const redis = new Redis(redisUrl);
      await redis.flushdb();
      await redis.quit();
      database = await createTempDatabase(adminUrl as string, 'mesmer_cluster');
      s3 = await startS3Server();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        ...s3.env,
        RATE_LIMIT: 'true',
        TRUST_PROXY: '127.0.0.1',
        // Media URLs are signed: every process needs the same key (README, "Several processes").
        SESSION_SECRET: 'cluster-test-signing-key-0123456789',
        // Library answers are kept for a minute, so a stale one would show.
        LIBRARY_CACHE_SECONDS: '60',
      };
      one = await startServerProcess(env); // migrates the new database first
      two = await startServerProcess(env);
      proxy = await startRoundRobinProxy({
        targets: [one, two].map((p) => ({ host: '127.0.0.1', port: p.port })),
      });
      const db = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
      await createUser(db.db, { username: 'owner' });
      listener = await createUser(db.db, { username: 'listener' });
      friend = await createUser(db.db, { username: 'friend' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
    });

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await proxy?.close();
      await Promise.all([one?.stop(), two?.stop()]);
      await s3?.stop();
      await database?.drop();
    });

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

    it('takes a sign-in on one process as valid on the other, and a sign-out on the other ends it', async () => {
      const token = await login(one.url, listener);
      const me = await json(await call(two.url, 'GET', '/user', token));
      expect(me.user).toMatchObject({ username: listener.username });
      expect((await call(two.url, 'DELETE', '/token', token)).status).toBe(204);
      expect((await json(await call(one.url, 'GET', '/user', token))).user).toBeNull();
    });

    it('counts failed sign-ins of an account across both processes (10 in 15 minutes)', async () => {
      const wrong = { user: friend.username, password: 'not the password', timezone: 'UTC' };
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await call(proxy.url, 'POST', '/token', undefined, wrong);
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses[10]).toBe(429);
      // Direct to each process: both refuse now, even the right password.
      for (const p of [one, two]) {
        const res = await call(p.url, 'POST', '/token', undefined, { ...wrong, password: friend.password });
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    });

    it('delivers a message posted through one process to a socket connected to the other', async () => {
      const t1 = await login(one.url, creator);
      const t2 = await login(two.url, listener);
      const thread = await json(
        await call(one.url, 'POST', '/messages/threads', t1, { name: null, userIds: String(listener.id) }),
      );
      const socket = connect(two.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token: t2 },
      });
      sockets.push(socket);
      await new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(null));
        socket.once('connect_error', reject);
      });
      const history = new Promise((resolve) => socket.once('bulk_messages', resolve));
      socket.emit('set_thread', thread.id, null, t2);
      await history;
      const arrived = new Promise<{ message: string }>((resolve) => socket.once('message', resolve));
      const sent = await call(one.url, 'POST', '/messages', t1, { threadId: thread.id, message: 'across' });
      expect(sent.status).toBe(200);
      expect(await arrived).toMatchObject({ message: 'across', threadId: thread.id, senderId: creator.id });
    });

    it('completes an upload whose chunks land on different processes; the new file shows in a kept list at once and plays from either', async () => {
      const token = await login(proxy.url, creator);
      const listUrl = '/files?pageSize=12&pageOffset=0&sortType=date&sortDirection=desc';
      // Kept on process one before the write.
      const before = await json(await call(one.url, 'GET', listUrl, token));
      expect(before.totalItems).toBe(0);

      // A wav of a little over 5 MiB: two chunks, the first at S3's minimum part size.
      const bytes = fs.readFileSync(await sineFile('wav', 62));
      const partSize = 5 * 1024 * 1024;
      const chunks = [bytes.subarray(0, partSize), bytes.subarray(partSize)];
      expect(chunks[1].length).toBeGreaterThan(0);
      const uuid = randomUUID();
      const upload = async (base: string, index: number, chunk?: Buffer) => {
        const form = new FormData();
        const fields = { uuid, fileName: 'Across.wav', secure: false, chunkIndex: index, totalChunks: 2 };
        for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
        if (chunk) {
          form.append('chunkSize', String(chunk.length));
          form.append('fileSize', String(bytes.length));
          form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
        }
        const res = await fetch(`${base}/api/files/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        expect(res.status, await res.clone().text()).toBe(200);
        return json(res);
      };
      await upload(one.url, 0, chunks[0]);
      await upload(two.url, 1, chunks[1]);
      const done = await upload(one.url, 0);
      expect(done.data).toEqual({ uuid });

      const created = await call(two.url, 'POST', '/files', token, { uuid, name: 'Across', fileType: 2 });
      expect(created.status, await created.clone().text()).toBe(200);
      const { id } = (await created.json()) as { id: number };

      const after = await json(await call(one.url, 'GET', listUrl, token));
      expect(after.totalItems).toBe(1);
      // The file's uuid is the server's id of the upload, not the client's handle (decision 018).
      const [file] = after.files as { id: number; uuid: string; name: string }[];
      expect(file).toMatchObject({ id, name: 'Across' });
      expect(file?.uuid).not.toBe(uuid);

      const byUuid = await json(await call(two.url, 'GET', `/files?uuid=${file?.uuid}`, token));
      const audioUrl = (byUuid.files as { audioURL: string }[])[0].audioURL;
      expect(audioUrl).toBeTruthy();
      for (const p of [one, two]) {
        const media = await fetch(new URL(audioUrl, p.url));
        expect(media.status).toBe(200);
        expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
      }
    });
  },
);
