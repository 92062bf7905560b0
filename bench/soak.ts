/**
 * Soak: SOAK_MINUTES (30) of mixed traffic against two server processes on PostgreSQL,
 * Redis and a local S3-compatible server, behind nginx configured by the several-machines recipe
 * (docs/deploy/nginx.conf; Debian's /usr/sbin/nginx or NGINX_PATH). Separate processes rather than
 * `npm run start:cluster`'s workers, so that each one's memory and event loop are measured apart.
 * SOAK_USERS (40) signed-in listeners each loop with a think time of 0.2-1.5 s over: browsing (file
 * and playlist lists with varied sorts and pages, single files and playlists, the leaderboard, their
 * own account), listening sessions (start, fetch a range of the audio under the session, end),
 * favourites, messages in two-person threads (read live on sockets), and, for the creators among
 * them, uploads of a short wav published and later deleted. Prints per process the RSS slope after a
 * three-minute warm-up (target < 1 MB/min), the event loop's p99 delay (target < 100 ms), and over
 * all requests the count of 5xx answers (target 0), with request rates and latencies per kind.
 *
 *   npm run bench:soak -w @mesmer/bench
 *   SOAK_MINUTES=5 SOAK_USERS=20 npm run bench:soak -w @mesmer/bench     # a short run
 *   BENCH_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres          # where the soak's database is made
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { sineFile } from '../packages/server/src/test/audio-fixtures.ts';
import { createUser } from '../packages/server/src/test/factories.ts';
import { startNginx } from '../packages/server/src/test/nginx.ts';
import { startS3Server } from '../packages/server/src/test/s3-server.ts';
import { createTempDatabase, freePort } from '../packages/server/src/test/server-process.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const USERS = Number(process.env.SOAK_USERS ?? 40);
const WARM_UP_MS = Math.min(3, MINUTES / 3) * 60_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const mainScript = path.resolve(here, '../packages/server/src/main.ts');
const probeScript = path.resolve(here, 'soak-probe.ts');
const redisUrl = `${process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'}/5`;

// --- the servers -------------------------------------------------------------------------------

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-soak-'));
const database = await createTempDatabase(
  process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  'mesmer_soak',
);
const redis = new Redis(redisUrl);
await redis.flushdb();
await redis.quit();
const s3 = await startS3Server({ bucket: 'mesmer-soak' });

interface Process {
  name: string;
  port: number;
  child: ChildProcess;
  probeFile: string;
}

async function startProcess(name: string, seed: boolean): Promise<Process> {
  const port = await freePort();
  const probeFile = path.join(work, `${name}.jsonl`);
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', probeScript, mainScript], {
    env: {
      ...process.env,
      ...s3.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, name),
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      SESSION_SECRET: 'soak-signing-key-0123456789abcdef',
      // nginx and this script both connect from 127.0.0.1, so each user's X-Forwarded-For is believed.
      TRUST_PROXY: '127.0.0.1',
      SEED_DEMO: seed ? 'force' : 'false',
      LOG_LEVEL: 'warn',
      SOAK_PROBE_FILE: probeFile,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { name, port, child, probeFile };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not start`);
}

const processes = [await startProcess('one', true)];
processes.push(await startProcess('two', false));
const nginx = await startNginx(processes.map((p) => ({ host: '127.0.0.1', port: p.port })));
const base = nginx.url;

// --- accounts ----------------------------------------------------------------------------------

const setup = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://' });
const accounts = [];
for (let i = 0; i < USERS; i++) {
  accounts.push(
    await createUser(setup.db, {
      username: `soak${i}`,
      roles: i % 10 === 0 ? ['Verified Creator'] : [],
    }),
  );
}
await setup.close();

// --- measuring ---------------------------------------------------------------------------------

interface Kind {
  count: number;
  errors5xx: number;
  other4xx: number;
  latencies: number[];
}
const kinds = new Map<string, Kind>();
const fiveHundreds: string[] = [];
const clientErrors = new Map<string, number>();
let stopping = false;

function record(kind: string, status: number, ms: number, detail: string) {
  let k = kinds.get(kind);
  if (!k) {
    k = { count: 0, errors5xx: 0, other4xx: 0, latencies: [] };
    kinds.set(kind, k);
  }
  k.count += 1;
  if (k.latencies.length < 200_000) k.latencies.push(ms);
  if (status >= 500) {
    k.errors5xx += 1;
    if (fiveHundreds.length < 20) fiveHundreds.push(`${status} ${detail}`);
  } else if (status >= 400 && status !== 429) {
    k.other4xx += 1;
    const route = `${status} ${detail.split('?')[0]}`;
    clientErrors.set(route, (clientErrors.get(route) ?? 0) + 1);
  }
}

async function request(
  kind: string,
  ip: string,
  method: string,
  route: string,
  opts: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, unknown> | null; bytes?: number }> {
  const started = performance.now();
  try {
    const res = await fetch(route.startsWith('http') ? route : `${base}${route}`, {
      method,
      headers: {
        'x-forwarded-for': ip,
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    });
    const type = res.headers.get('content-type') ?? '';
    let json: Record<string, unknown> | null = null;
    let bytes: number | undefined;
    if (type.includes('json')) json = (await res.json()) as Record<string, unknown>;
    else bytes = (await res.arrayBuffer()).byteLength;
    record(kind, res.status, performance.now() - started, `${method} ${route}`);
    return { status: res.status, json, bytes };
  } catch (err) {
    record(kind, 599, performance.now() - started, `${method} ${route}: ${(err as Error).message}`);
    return { status: 599, json: null };
  }
}

// --- the users' loops --------------------------------------------------------------------------

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wav = fs.readFileSync(await sineFile('wav', 3));

const anon = await request('setup', '10.200.0.1', 'GET', '/api/files?pageSize=50&pageOffset=0&sortType=date');
const fileUuids = ((anon.json?.files ?? []) as { uuid: string }[]).map((f) => f.uuid);
const core = await request('setup', '10.200.0.1', 'GET', '/api/playlists?core=true&pageSize=12&pageOffset=0');
const playlists = ((core.json?.playlists ?? []) as { id: number; uuid: string }[]).map((p) => p);
if (fileUuids.length === 0 || playlists.length === 0) throw new Error('the demo library did not load');

const sockets: Socket[] = [];
let delivered = 0;
/** Two-person threads by the index of the user who made it (the even one of each pair). */
const threadOf = new Map<number, Promise<number | null>>();

async function user(index: number) {
  const account = accounts[index];
  const ip = `10.201.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const login = await request('login', ip, 'POST', '/api/token', {
    body: { user: account.username, password: account.password, timezone: 'UTC' },
  });
  const token = login.json?.token as string;
  const partner = accounts[index % 2 === 0 ? index + 1 : index - 1];
  let threadId: number | null = null;
  if (partner && index % 2 === 0) {
    const made = request('message', ip, 'POST', '/api/messages/threads', {
      token,
      body: { name: null, userIds: String(partner.id) },
    }).then((res) => (res.json?.id as number) ?? null);
    threadOf.set(index, made);
    threadId = await made;
  } else if (partner) {
    // The other member reads the thread live on a socket, once its partner has made it.
    while (!threadOf.has(index - 1)) await sleep(50);
    const id = await threadOf.get(index - 1);
    if (id) {
      const socket = connect(base, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token },
        extraHeaders: { 'x-forwarded-for': ip },
      });
      socket.on('connect', () => socket.emit('set_thread', id, null, token));
      socket.on('message', () => {
        delivered += 1;
      });
      sockets.push(socket);
    }
  }
  const uploads: number[] = [];
  const creator = index % 10 === 0;
  let lastUpload = Date.now();

  while (!stopping) {
    await sleep(200 + Math.random() * 1300);
    if (stopping) break;
    const roll = Math.random();
    if (creator && Date.now() - lastUpload > 60_000) {
      lastUpload = Date.now();
      const uuid = randomUUID();
      const form = new FormData();
      const fields = { uuid, fileName: 'soak.wav', secure: false, chunkIndex: 0, totalChunks: 1 };
      for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
      form.append('chunkSize', String(wav.length));
      form.append('chunk', new Blob([new Uint8Array(wav)]), 'blob');
      await request('upload', ip, 'POST', '/api/files/upload', { token, raw: form });
      const done = new FormData();
      for (const [name, value] of Object.entries(fields)) done.append(name, String(value));
      await request('upload', ip, 'POST', '/api/files/upload', { token, raw: done });
      const created = await request('upload', ip, 'POST', '/api/files', {
        token,
        body: { uuid, name: `Soak ${index} ${Date.now()}`, fileType: 2 },
      });
      if (typeof created.json?.id === 'number') uploads.push(created.json.id);
      if (uploads.length > 2)
        await request('upload', ip, 'DELETE', `/api/files?id=${uploads.shift()}`, { token });
    } else if (roll < 0.6) {
      const sort = pick(['date', 'playcount']);
      const routes = [
        `/api/files?pageSize=12&pageOffset=${Math.floor(Math.random() * 3) * 12}&sortType=${sort}&sortDirection=${pick(['asc', 'desc'])}`,
        `/api/files?uuid=${pick(fileUuids)}`,
        `/api/playlists?core=true&pageSize=12&pageOffset=0`,
        `/api/playlists?uuid=${pick(playlists).uuid}`,
        `/api/playlists?public=true&pageSize=8&pageOffset=0&sort=${pick(['datecreated', 'likes', 'name'])}`,
        '/api/leaderboard?pageSize=50&pageOffset=0',
        '/api/user',
        '/api/tags',
      ];
      await request('browse', ip, 'GET', pick(routes), { token });
    } else if (roll < 0.75) {
      const file = await request('listen', ip, 'GET', `/api/files?uuid=${pick(fileUuids)}`, { token });
      const found = (file.json?.files as { id: number; audioURL: string | null }[] | undefined)?.[0];
      if (!found?.audioURL) continue;
      const session = await request('listen', ip, 'POST', '/api/session', {
        token,
        body: { timezone: 'UTC' },
      });
      const sessionToken = session.json?.token as string | undefined;
      if (!sessionToken) continue;
      const url = new URL(found.audioURL, base);
      url.searchParams.set('session', sessionToken);
      await request('listen', ip, 'GET', url.toString(), { token, headers: { range: 'bytes=0-65535' } });
      await request('listen', ip, 'POST', '/api/session', {
        token,
        body: { sessionToken, timezone: 'UTC', fileId: found.id },
      });
    } else if (roll < 0.85) {
      await request('rate', ip, 'PUT', '/api/playlist/user', {
        token,
        body: { id: pick(playlists).id, isFavorite: Math.random() < 0.5 },
      });
    } else if (threadId !== null) {
      await request('message', ip, 'POST', '/api/messages', {
        token,
        body: { threadId, message: `soak ${Date.now()}` },
      });
    }
  }
}

// --- the run -----------------------------------------------------------------------------------

console.log(
  `Soak: ${MINUTES} min, ${USERS} users, 2 processes on PostgreSQL + Redis + S3 behind ${base} (load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})`,
);
const started = Date.now();
const loops = accounts.map((_, i) => user(i));
const progress = setInterval(() => {
  const total = [...kinds.values()].reduce((n, k) => n + k.count, 0);
  const bad = [...kinds.values()].reduce((n, k) => n + k.errors5xx, 0);
  console.log(`  ${((Date.now() - started) / 60_000).toFixed(1)} min: ${total} requests, ${bad} 5xx`);
}, 60_000);
await sleep(MINUTES * 60_000);
stopping = true;
clearInterval(progress);
await Promise.all(loops);
for (const s of sockets) s.disconnect();

// --- results -----------------------------------------------------------------------------------

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const seconds = (Date.now() - started) / 1000;
console.log('\n| kind | requests | per s | p50 ms | p95 ms | p99 ms | 5xx | 4xx (not 429) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, k] of [...kinds.entries()].sort()) {
  if (name === 'setup') continue;
  console.log(
    `| ${name} | ${k.count} | ${(k.count / seconds).toFixed(1)} | ${percentile(k.latencies, 50).toFixed(1)} | ${percentile(k.latencies, 95).toFixed(1)} | ${percentile(k.latencies, 99).toFixed(1)} | ${k.errors5xx} | ${k.other4xx} |`,
  );
}
console.log(`\nmessages delivered to open sockets: ${delivered}`);
if (fiveHundreds.length > 0) console.log(`first 5xx: ${fiveHundreds.join('\n  ')}`);
if (clientErrors.size > 0)
  console.log(`4xx answers by route: ${JSON.stringify(Object.fromEntries(clientErrors))}`);

console.log(
  '\n| process | RSS start MB | RSS end MB | RSS slope after warm-up MB/min | event-loop p99 ms (worst 10 s) | event-loop p99 ms (median 10 s) |',
);
console.log('|---|---|---|---|---|---|');
for (const p of processes) {
  const samples = fs
    .readFileSync(p.probeFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { t: number; rss: number; loopP99Ms: number })
    .filter((s) => s.t >= started);
  const after = samples.filter((s) => s.t >= started + WARM_UP_MS);
  // Least squares over (minutes, MB).
  const xs = after.map((s) => (s.t - started) / 60_000);
  const ys = after.map((s) => s.rss / 2 ** 20);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope =
    xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) /
    xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  const loops99 = samples.map((s) => s.loopP99Ms);
  console.log(
    `| ${p.name} | ${(samples[0].rss / 2 ** 20).toFixed(0)} | ${((samples.at(-1)?.rss ?? 0) / 2 ** 20) | 0} | ${slope.toFixed(2)} | ${Math.max(...loops99).toFixed(1)} | ${percentile(loops99, 50).toFixed(1)} |`,
  );
}

await nginx.stop();
await Promise.all(
  processes.map(
    (p) =>
      new Promise((resolve) => {
        p.child.once('exit', resolve);
        p.child.kill('SIGTERM');
      }),
  ),
);
await s3.stop();
await database.drop();
fs.rmSync(work, { recursive: true, force: true });
process.exit(0);
