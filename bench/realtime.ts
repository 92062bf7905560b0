/**
 * Realtime messaging under load: 2,000 idle sockets and 200 active senders (100 two-person threads,
 * both members in the room), against a bare socket.io relay measured the same way in the same run.
 * Each sender posts BENCH_RATE messages a second for BENCH_SECONDS; on Mesmer through
 * POST /api/messages (stored in the database, then pushed), on the relay as a socket event.
 * One run measures, one after the other: the relay; Mesmer on the embedded database (PGlite); with
 * BENCH_DATABASE_URL, Mesmer on PostgreSQL; with BENCH_REDIS_URL too, two Mesmer processes on that
 * PostgreSQL sharing Redis (the two members of each thread on different processes, so every
 * message crosses Redis). Prints delivered messages per second, their ratio to the relay's (target
 * ≥ 0.7), delivery time from send to receipt (targets p95 < 50 ms, p99 < 200 ms), the CPU time of
 * the server processes and of the database's PostgreSQL backends per message, and server memory
 * per idle socket.
 *
 *   npm run bench:realtime -w @mesmer/bench
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench_rt \
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379 npm run bench:realtime -w @mesmer/bench
 *
 * The PostgreSQL database named by BENCH_DATABASE_URL is dropped and made again before each
 * variant that uses it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { cpuMsOf, postgresCpuMs, redisCpuMs } from './process-cpu.ts';

const IDLE = Number(process.env.BENCH_IDLE ?? 2000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? '';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? '';

interface Variant {
  title: string;
  mode: 'mesmer' | 'echo';
  database: 'pglite' | 'postgres' | null;
  processes: number;
  redis: boolean;
}

interface Started {
  child: ChildProcess;
  port: number;
  setup: { tokens: string[]; threadIds: number[] } | null;
  dataDir: string;
}

/** Drops and makes again the PostgreSQL database of BENCH_DATABASE_URL: each variant starts empty. */
async function freshPostgres() {
  const url = new URL(DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
}

async function start(v: Variant, setup: boolean): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-rt-'));
  const child = fork(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'realtime-server.ts'),
    [v.mode],
    {
      execArgv: [
        '--import',
        'tsx',
        '--expose-gc',
        // BENCH_CPU_PROF=<folder>: each server process writes a V8 CPU profile there as it stops.
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: v.database === 'postgres' ? DATABASE_URL : '',
        REDIS_URL: v.redis ? REDIS_URL : '',
        SEED_DEMO: 'false',
        RATE_LIMIT: 'false',
        LOG_LEVEL: 'warn',
        BENCH_SETUP: setup ? 'true' : 'false',
        BENCH_PAIRS: String(PAIRS),
        BENCH_IDLE: String(IDLE),
        TRUST_PROXY: 'loopback',
      },
    },
  );
  const first = await new Promise<{ port: number; setup: Started['setup'] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; setup: Started['setup'] }));
    child.once('exit', (code) => reject(new Error(`${v.title} server exited with ${code}`)));
  });
  return { child, dataDir, ...first };
}

const rss = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    child.once('message', (m) => resolve((m as { rss: number }).rss));
    child.send('rss');
  });

/**
 * A socket of listener `n`: its own session and its own address (the server trusts the loopback
 * proxy's X-Forwarded-For here, as behind a balancer), so the caps per account and per address
 * (decision 020) see many people, as in production.
 */
function open(port: number, n: number, token?: string): Promise<Socket> {
  const socket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: token ? { token } : {},
    extraHeaders: { 'x-forwarded-for': `127.1.${(n >> 8) & 255}.${n & 255}` },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) {
    out.push(
      ...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j)))),
    );
  }
  return out;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function postMessage(port: number, token: string, threadId: number, text: string): Promise<number> {
  const body = JSON.stringify({ threadId, message: text });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/messages',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // A refused message says why (a benchmark that only counts failures hides their cause).
          if (res.statusCode !== 200) {
            console.error(
              `POST /api/messages ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`,
            );
          }
          resolve(res.statusCode ?? 0);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const p = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function measure(v: Variant) {
  if (v.database === 'postgres') await freshPostgres();
  // The first process makes the users and threads; the others only serve (and start after it migrated).
  const servers: Started[] = [];
  for (let i = 0; i < v.processes; i++) servers.push(await start(v, i === 0));
  const setup = servers[0]?.setup;
  const tokens = setup?.tokens ?? [];
  const threadIds = setup?.threadIds ?? Array.from({ length: PAIRS }, (_, i) => i + 1);
  // Listener n talks to process n mod N: the two members of a thread sit on different processes.
  const portOf = (n: number) => (servers[n % servers.length] as Started).port;
  const rssAll = async () => (await Promise.all(servers.map((s) => rss(s.child)))).reduce((a, b) => a + b, 0);
  const base = await rssAll();
  const idle = await inBatches(IDLE, 100, (i) =>
    open(portOf(PAIRS * 2 + i), PAIRS * 2 + i, tokens[PAIRS * 2 + i]),
  );
  await new Promise((r) => setTimeout(r, 500));
  const withIdle = await rssAll();

  const senders = await inBatches(PAIRS * 2, 50, async (i) => {
    const socket = await open(portOf(i), i, tokens[i]);
    const threadId = threadIds[Math.floor(i / 2)] as number;
    const ready = new Promise((resolve) => socket.once('bulk_messages', resolve));
    socket.emit('set_thread', threadId, null, tokens[i] ?? null);
    await ready;
    return { socket, port: portOf(i), threadId, token: tokens[i] ?? '' };
  });

  const latencies: number[] = [];
  const bySecond: [number, number][] = [];
  let delivered = 0;
  let failed = 0;
  let sent = 0;
  let measuring = true;
  // Counted: the messages sent from `started` on (the text carries the send time), until the end.
  let started = Number.POSITIVE_INFINITY;
  for (const { socket } of senders) {
    socket.on('message', (m: { message: string }) => {
      const at = Number(m.message);
      if (!measuring || at < started) return;
      delivered += 1;
      latencies.push(performance.now() - at);
      if (process.env.BENCH_DEBUG) bySecond.push([Math.floor((at - started) / 1000), performance.now() - at]);
    });
  }
  const cpu = () => ({
    client: cpuMsOf(process.pid),
    server: servers.reduce((sum, s) => sum + cpuMsOf(s.child.pid), 0),
    postgres: v.database === 'postgres' ? postgresCpuMs(DATABASE_URL) : 0,
    redis: v.redis ? redisCpuMs() : 0,
  });
  // Each sender posts RATE messages a second (spread over the first interval), first for
  // WARMUP_SECONDS not counted (code compiled, statements planned, batches grown to the load: a
  // server that has been up a while), then for SECONDS counted.
  const from = performance.now();
  const end = from + (WARMUP_SECONDS + SECONDS) * 1000;
  let cpuBefore = cpu();
  const warmedUp = setTimeout(() => {
    cpuBefore = cpu();
    started = performance.now();
  }, WARMUP_SECONDS * 1000);
  await Promise.all(
    senders.map(async (s, i) => {
      let due = from + (i / senders.length) * (1000 / RATE);
      while (due < end) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const at = performance.now();
        if (at >= started) sent += 1;
        const text = String(at);
        if (v.mode === 'echo') s.socket.emit('send', s.threadId, text);
        else if ((await postMessage(s.port, s.token, s.threadId, text)) !== 200 && at >= started) failed += 1;
        due += 1000 / RATE;
      }
    }),
  );
  clearTimeout(warmedUp);
  await new Promise((r) => setTimeout(r, 1000)); // let the last deliveries arrive
  measuring = false;
  const cpuAfter = cpu();
  const elapsed = (performance.now() - started) / 1000;
  for (const s of [...idle, ...senders.map((x) => x.socket)]) s.disconnect();
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
  latencies.sort((a, b) => a - b);
  if (process.env.BENCH_DEBUG) {
    const secs = new Map<number, number[]>();
    for (const [sec, l] of bySecond) secs.set(sec, [...(secs.get(sec) ?? []), l]);
    console.error(
      v.title,
      [...secs]
        .map(
          ([sec, ls]) =>
            `${sec}s:${p(
              ls.sort((a, b) => a - b),
              0.95,
            ).toFixed(0)}/${Math.max(...ls).toFixed(0)}`,
        )
        .join(' '),
    );
  }
  return {
    title: v.title,
    sent,
    failed,
    delivered,
    expected: sent * 2,
    deliveredPerSecond: delivered / elapsed,
    p50: p(latencies, 0.5),
    p95: p(latencies, 0.95),
    p99: p(latencies, 0.99),
    clientCpuPerMessage: (cpuAfter.client - cpuBefore.client) / Math.max(1, sent),
    serverCpuPerMessage: (cpuAfter.server - cpuBefore.server) / Math.max(1, sent),
    postgresCpuPerMessage:
      v.database === 'postgres' ? (cpuAfter.postgres - cpuBefore.postgres) / Math.max(1, sent) : null,
    redisCpuPerMessage: v.redis ? (cpuAfter.redis - cpuBefore.redis) / Math.max(1, sent) : null,
    bytesPerIdleSocket: (withIdle - base) / IDLE,
  };
}

const variants: Variant[] = [
  { title: 'relay', mode: 'echo', database: null, processes: 1, redis: false },
  { title: 'mesmer, PGlite', mode: 'mesmer', database: 'pglite', processes: 1, redis: false },
];
if (DATABASE_URL) {
  variants.push({
    title: 'mesmer, PostgreSQL',
    mode: 'mesmer',
    database: 'postgres',
    processes: 1,
    redis: false,
  });
  if (REDIS_URL) {
    variants.push({
      title: 'mesmer ×2, PG + Redis',
      mode: 'mesmer',
      database: 'postgres',
      processes: 2,
      redis: true,
    });
  }
}
const loadBefore = os.loadavg();
const only = process.env.BENCH_ONLY; // e.g. "PGlite": the relay and the variants whose title has it
const results = [];
for (const v of variants) {
  if (only && v.mode !== 'echo' && !v.title.includes(only)) continue;
  results.push(await measure(v));
}
agent.destroy();

const relay = results[0] as Awaited<ReturnType<typeof measure>>;
const fixed = (n: number | null, digits = 1) => (n === null ? '–' : n.toFixed(digits));
console.log(
  `\n${IDLE} idle sockets, ${PAIRS * 2} senders in ${PAIRS} two-person threads, ${RATE} msg/s each for ${SECONDS} s; ` +
    `load average (1, 5, 15 min) before ${loadBefore.map((l) => l.toFixed(1)).join(' ')}, after ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
);
console.log(
  '| server | sent | delivered | failed | delivered/s | ratio | p50 ms | p95 ms | p99 ms | CPU ms/msg: server | PostgreSQL | Redis | client | KiB per idle socket |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.title} | ${r.sent} | ${r.delivered} / ${r.expected} | ${r.failed} | ${r.deliveredPerSecond.toFixed(0)} | ${(r.deliveredPerSecond / relay.deliveredPerSecond).toFixed(2)} | ${fixed(r.p50)} | ${fixed(r.p95)} | ${fixed(r.p99)} | ${fixed(r.serverCpuPerMessage, 2)} | ${fixed(r.postgresCpuPerMessage, 2)} | ${fixed(r.redisCpuPerMessage, 2)} | ${fixed(r.clientCpuPerMessage, 2)} | ${(r.bytesPerIdleSocket / 1024).toFixed(1)} |`,
  );
}
console.log('\ntargets: ratio ≥ 0.7, p95 < 50 ms, p99 < 200 ms');
process.exit(0);
