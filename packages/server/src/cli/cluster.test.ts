// `npm run start:cluster` (cli/cluster.ts) on one PostgreSQL database and the local Redis: node:cluster
// workers share the one port, a killed worker is replaced, a message posted on one worker reaches a
// socket on the other, and SIGTERM stops them all. Which worker answered a request is read from its
// log: every line carries the worker's pid and the request's id, which the answer's X-Request-Id names.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { createUser, type TestUser } from '../test/factories.ts';
import { testDbKind } from '../test/harness.ts';
import { createTempDatabase, freePort, openSocket, type TempDatabase } from '../test/server-process.ts';

const clusterScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'cluster.ts');
const adminUrl = process.env.TEST_DATABASE_URL;
// Socket rooms live in Redis: this file has a Redis database of its own, emptied first.
const redisUrl = `${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}/7`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process is gone (signal 0 only asks). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe.skipIf(!adminUrl || testDbKind !== 'postgres')(
  'start:cluster on node:cluster (runs in the PostgreSQL pass: needs TEST_DATABASE_URL and Redis)',
  { timeout: 60_000 },
  () => {
    let database: TempDatabase;
    let dataDir: string;
    let primary: ChildProcess;
    let output = '';
    let base: string;
    let workers: number[];
    let listener: TestUser;
    let creator: TestUser;
    const sockets: Socket[] = [];

    /** Waits until the primary's output matches; answers the match. */
    async function printed(pattern: RegExp, ms = 60_000): Promise<RegExpMatchArray> {
      for (let waited = 0; waited < ms; waited += 100) {
        const match = output.match(pattern);
        if (match) return match;
        if (primary.exitCode !== null)
          throw new Error(`start:cluster exited with ${primary.exitCode}:\n${output}`);
        await sleep(100);
      }
      throw new Error(`start:cluster did not print ${pattern} within ${ms} ms:\n${output}`);
    }

    /** A request on a connection of its own (node:cluster hands out connections, not requests). */
    function send(
      method: string,
      route: string,
      opts: { token?: string; body?: object } = {},
    ): Promise<{ status: number; requestId: string; body: string }> {
      return new Promise((resolve, reject) => {
        const req = http.request(`${base}${route}`, {
          method,
          agent: false,
          headers: {
            ...(opts.body ? { 'content-type': 'application/json' } : {}),
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id']), body }),
          );
        });
        req.on('error', reject);
        req.end(opts.body ? JSON.stringify(opts.body) : undefined);
      });
    }

    /** The pid of the worker that logged the request `requestId`. */
    async function workerOf(requestId: string): Promise<number> {
      for (let i = 0; i < 50; i++) {
        for (const line of output.split('\n')) {
          if (!line.startsWith('{') || !line.includes(requestId)) continue;
          const entry = JSON.parse(line) as { pid: number; reqId?: string };
          if (entry.reqId === requestId) return entry.pid;
        }
        await sleep(50);
      }
      throw new Error(`no worker logged request ${requestId}`);
    }

    /** Which workers answer `count` health checks, each on a new connection. */
    async function answering(count: number): Promise<Set<number>> {
      const pids = new Set<number>();
      for (let i = 0; i < count; i++) {
        const res = await send('GET', '/api/health');
        expect(res.status).toBe(200);
        pids.add(await workerOf(res.requestId));
      }
      return pids;
    }

    beforeAll(async () => {
      const redis = new Redis(redisUrl);
      await redis.flushdb();
      await redis.quit();
      database = await createTempDatabase(adminUrl as string, 'mesmer_cluster');
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-cluster-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      primary = spawn(process.execPath, ['--import', 'tsx', clusterScript], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          CLUSTER_PROCESSES: '2',
          DATABASE_URL: database.url,
          REDIS_URL: redisUrl,
          DATA_DIR: dataDir,
          SESSION_SECRET: 'cluster-test-signing-key-0123456789',
          SEED_DEMO: 'false',
          // Every request's "incoming request" line names the worker (pid) and the request (reqId).
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
      };
      primary.stdout?.on('data', collect);
      primary.stderr?.on('data', collect);
      const [, first, second] = await printed(/2 server processes \((\d+), (\d+)\) are serving/, 90_000);
      workers = [Number(first), Number(second)];

      const db = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
      await createUser(db.db, { username: 'owner' });
      listener = await createUser(db.db, { username: 'listener' });
      creator = await createUser(db.db, { username: 'creator', roles: ['Verified Creator'] });
      await db.close();
    }, 120_000);

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      if (primary && primary.exitCode === null && primary.signalCode === null) {
        primary.kill('SIGKILL');
        for (const pid of workers ?? []) if (!gone(pid)) process.kill(pid, 'SIGKILL');
      }
      await database?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const login = async (user: TestUser) => {
      const res = await send('POST', '/api/token', {
        body: { user: user.username, password: user.password, timezone: 'UTC' },
      });
      expect(res.status).toBe(200);
      return (JSON.parse(res.body) as { token: string }).token;
    };

    it('serves the one port from both workers, in turn', async () => {
      expect(await answering(6)).toEqual(new Set(workers));
    });

    it('shares sign-ins and rate limits between the workers', async () => {
      const signIn = await send('POST', '/api/token', {
        body: { user: listener.username, password: listener.password, timezone: 'UTC' },
      });
      expect(signIn.status).toBe(200);
      const signedInOn = await workerOf(signIn.requestId);
      const { token } = JSON.parse(signIn.body) as { token: string };
      let elsewhere: { status: number; body: string } | undefined;
      for (let i = 0; i < 6 && !elsewhere; i++) {
        const res = await send('GET', '/api/user', { token });
        if ((await workerOf(res.requestId)) !== signedInOn) elsewhere = res;
      }
      expect(elsewhere?.status).toBe(200);
      expect(JSON.parse(elsewhere?.body ?? '{}').user).toMatchObject({ username: listener.username });

      // Asking for a password reset: 5 per 10 minutes from one address (the empty form is a 400, counted),
      // counted in Redis whichever worker answers.
      const statuses: number[] = [];
      const answeredBy = new Set<number>();
      for (let i = 0; i < 6; i++) {
        const res = await send('POST', '/api/reset_password', { body: {} });
        statuses.push(res.status);
        answeredBy.add(await workerOf(res.requestId));
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      expect(answeredBy).toEqual(new Set(workers));
    });

    it('delivers a message posted on one worker to a socket held by the other', async () => {
      const creatorToken = await login(creator);
      const listenerToken = await login(listener);
      const thread = await send('POST', '/api/messages/threads', {
        token: creatorToken,
        body: { name: null, userIds: String(listener.id) },
      });
      expect(thread.status).toBe(200);
      const threadId = (JSON.parse(thread.body) as { id: number }).id;
      const socket = await openSocket(base, listenerToken);
      sockets.push(socket);
      const history = new Promise((resolve) => socket.once('bulk_messages', resolve));
      socket.emit('set_thread', threadId, null, listenerToken);
      await history;
      const arrived: string[] = [];
      socket.on('message', (message: { message: string }) => arrived.push(message.message));

      // The worker holding the socket: the one whose metrics count an open socket.
      const openSockets = new Map<number, number>();
      for (let i = 0; i < 10 && openSockets.size < 2; i++) {
        const res = await send('GET', '/metrics');
        const count = /^socketio_open_connections (\d+)$/m.exec(res.body);
        openSockets.set(await workerOf(res.requestId), Number(count?.[1]));
      }
      const holder = [...openSockets].find(([, count]) => count === 1)?.[0];
      expect(workers).toContain(holder);

      // Posted until one post lands on the other worker; that one must arrive too.
      let crossed: string | undefined;
      for (let i = 0; i < 6 && !crossed; i++) {
        const text = `message ${i}`;
        const sent = await send('POST', '/api/messages', {
          token: creatorToken,
          body: { threadId, message: text },
        });
        expect(sent.status).toBe(200);
        if ((await workerOf(sent.requestId)) !== holder) crossed = text;
      }
      expect(crossed).toBeDefined();
      for (let i = 0; i < 50 && !arrived.includes(crossed as string); i++) await sleep(100);
      expect(arrived).toContain(crossed);
    });

    it('forks a new worker when one dies, and the other serves meanwhile', async () => {
      const [killed, survivor] = workers;
      process.kill(killed, 'SIGKILL');
      await printed(new RegExp(`server process ${killed} exited \\(SIGKILL\\)`));
      expect(await answering(3)).toEqual(new Set([survivor]));
      const [, replacement] = await printed(new RegExp(`server process (\\d+) replaces ${killed}`));
      workers = [survivor, Number(replacement)];
      expect(await answering(6)).toEqual(new Set(workers));
    });

    it('stops every worker, then itself, on SIGTERM', async () => {
      const exited = new Promise<number | null>((resolve) => primary.once('exit', resolve));
      primary.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(workers.filter((pid) => !gone(pid))).toEqual([]);
    });
  },
);
