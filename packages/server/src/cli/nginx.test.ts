// The several-machines recipe (docs/deploy/nginx.conf) run for real: nginx in front of two server
// processes on one PostgreSQL database, Redis and a local S3-compatible server. Through it the
// messaging socket upgrades to a WebSocket and hears a message posted on either process, the
// processes count a client by the address nginx forwards (TRUST_PROXY names nginx), and audio Range
// requests come back as 206; whatever process a request lands on, the answer is the same as with one.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { sineFile } from '../test/audio-fixtures.ts';
import { createUser, type TestUser } from '../test/factories.ts';
import { testDbKind } from '../test/harness.ts';
import { type Nginx, startNginx } from '../test/nginx.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import {
  createTempDatabase,
  openSocket,
  type ServerProcess,
  startServerProcess,
  type TempDatabase,
} from '../test/server-process.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
// Rate-limit counts outlive a run in Redis (and a fresh database gives the same user ids each time):
// this file has a Redis database of its own, emptied first.
const redisUrl = `${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}/8`;

/** A request from a chosen loopback address (Linux answers on all of 127.0.0.0/8), on a connection of its own. */
function requestFrom(
  localAddress: string,
  url: string,
  opts: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      localAddress,
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe.skipIf(!adminUrl || testDbKind !== 'postgres')(
  'nginx from docs/deploy/nginx.conf in front of two processes (runs in the PostgreSQL pass: needs TEST_DATABASE_URL, Redis and nginx)',
  { timeout: 60_000 },
  () => {
    let database: TempDatabase;
    let s3: TestS3Server;
    let one: ServerProcess;
    let two: ServerProcess;
    let nginx: Nginx;
    let listener: TestUser;
    let friend: TestUser;
    let creator: TestUser;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      const redis = new Redis(redisUrl);
      await redis.flushdb();
      await redis.quit();
      database = await createTempDatabase(adminUrl as string, 'mesmer_nginx');
      // Processes on several machines keep media in a bucket (README, "Several processes").
      s3 = await startS3Server();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        ...s3.env,
        RATE_LIMIT: 'true',
        // nginx reaches the processes from this address: only its X-Forwarded-For is believed.
        TRUST_PROXY: '127.0.0.1',
        // Media URLs are signed: every process needs the same key.
        SESSION_SECRET: 'nginx-test-signing-key-0123456789',
        // Library answers are kept for a minute, so a stale one would show.
        LIBRARY_CACHE_SECONDS: '60',
      };
      one = await startServerProcess(env); // migrates the new database first
      two = await startServerProcess(env);
      nginx = await startNginx([one, two].map((p) => ({ host: '127.0.0.1', port: p.port })));
      const db = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
      await createUser(db.db, { username: 'owner' });
      listener = await createUser(db.db, { username: 'listener' });
      friend = await createUser(db.db, { username: 'friend' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
    }, 120_000);

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await nginx?.stop();
      await Promise.all([one?.stop(), two?.stop()]);
      await s3?.stop();
      await database?.drop();
    });

    const call = (base: string, method: string, route: string, token?: string, body?: object) =>
      fetch(`${base}/api${route}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const json = (res: Response) => res.json() as Promise<Record<string, unknown>>;
    const login = async (user: TestUser, base = nginx.url) => {
      const res = await call(base, 'POST', '/token', undefined, {
        user: user.username,
        password: user.password,
        timezone: 'UTC',
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };

    it('takes a sign-in on one process as valid on the other, and a sign-out on the other ends it', async () => {
      const token = await login(listener, one.url);
      const me = await json(await call(two.url, 'GET', '/user', token));
      expect(me.user).toMatchObject({ username: listener.username });
      expect((await call(two.url, 'DELETE', '/token', token)).status).toBe(204);
      expect((await json(await call(one.url, 'GET', '/user', token))).user).toBeNull();
    });

    it('counts failed sign-ins of an account across both processes (10 in 15 minutes)', async () => {
      const wrong = { user: friend.username, password: 'not the password', timezone: 'UTC' };
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await call(nginx.url, 'POST', '/token', undefined, wrong);
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

    it('upgrades the socket to a WebSocket through nginx, and it hears messages posted on either process', async () => {
      const creatorToken = await login(creator);
      const listenerToken = await login(listener);
      const threadRes = await call(nginx.url, 'POST', '/messages/threads', creatorToken, {
        name: null,
        userIds: String(listener.id),
      });
      const thread = (await threadRes.json()) as { id: number };
      // WebSocket only, as the web app connects: without the upgrade headers there is no connection.
      const socket = await openSocket(nginx.url, listenerToken);
      sockets.push(socket);
      const history = new Promise((resolve) => socket.once('bulk_messages', resolve));
      socket.emit('set_thread', thread.id, null, listenerToken);
      await history;
      // The socket is on one of the two; each process in turn posts, so one message crosses over.
      for (const [name, server] of [
        ['one', one],
        ['two', two],
      ] as const) {
        const arrived = new Promise<{ message: string }>((resolve) => socket.once('message', resolve));
        const text = `posted on process ${name}`;
        const sent = await call(server.url, 'POST', '/messages', creatorToken, {
          threadId: thread.id,
          message: text,
        });
        expect(sent.status).toBe(200);
        expect(await arrived).toMatchObject({ message: text, threadId: thread.id, senderId: creator.id });
      }
    });

    it('counts a client by the address nginx forwards, not by nginx’s own, nor by what the client claims', async () => {
      // Asking for a password reset: 5 per 10 minutes from one address (the empty form is a 400, counted).
      const resetFrom = (address: string, headers: http.OutgoingHttpHeaders = {}) =>
        requestFrom(address, `${nginx.url}/api/reset_password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: '{}',
        }).then((res) => res.status);
      const first: number[] = [];
      for (let i = 0; i < 6; i++) first.push(await resetFrom('127.0.0.2'));
      expect(first).toEqual([400, 400, 400, 400, 400, 429]);
      // Every request reached the processes from nginx (127.0.0.1), yet another client is not limited,
      // even when it claims to be the limited one: nginx appends the address it saw.
      expect(await resetFrom('127.0.0.3')).toBe(400);
      expect(await resetFrom('127.0.0.4', { 'x-forwarded-for': '127.0.0.2' })).toBe(400);
    });

    it('completes an upload whose chunks land on different processes; the new file shows in a kept list at once, plays from either, and answers Range requests through nginx', async () => {
      const token = await login(creator);
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
      // Completed through nginx: the request may land on either.
      const done = await upload(nginx.url, 0);
      expect(done.data).toEqual({ uuid });

      const created = await call(two.url, 'POST', '/files', token, { uuid, name: 'Across', fileType: 2 });
      expect(created.status, await created.clone().text()).toBe(200);
      const { id } = (await created.json()) as { id: number };

      const after = await json(await call(one.url, 'GET', listUrl, token));
      expect(after.totalItems).toBe(1);
      // The file's uuid is the server's id of the upload, not the client's handle (decision 018).
      const [file] = after.files as { id: number; uuid: string; name: string; audioURL: string }[];
      expect(file).toMatchObject({ id, name: 'Across' });
      expect(file?.uuid).not.toBe(uuid);
      expect(file?.audioURL).toBeTruthy();
      for (const p of [one, two]) {
        const media = await fetch(new URL(file.audioURL, p.url));
        expect(media.status).toBe(200);
        expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
      }

      // Through nginx: the Range reaches a process, and its 206 comes back as it is.
      const media = new URL(file.audioURL, nginx.url).toString();
      for (const [start, end] of [
        [0, 99],
        [1_000_000, 1_065_535],
        [bytes.length - 10, bytes.length - 1],
      ]) {
        const res = await requestFrom('127.0.0.1', media, { headers: { range: `bytes=${start}-${end}` } });
        expect(res.status).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
        expect(res.body.equals(bytes.subarray(start, end + 1))).toBe(true);
      }
    });
  },
);
