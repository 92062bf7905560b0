/**
 * Realtime messaging under load: one Mesmer server process with 2,000 idle sockets and
 * 200 active senders (100 two-person threads, both members in the room), against a bare socket.io
 * relay server measured the same way in the same run. Each sender posts BENCH_RATE messages a second
 * for BENCH_SECONDS; on Mesmer through POST /api/messages (stored in the database, then pushed),
 * on the relay as a socket event. Prints delivered messages per second, their ratio (target ≥ 0.7),
 * p95 delivery time from send to receipt (target < 50 ms) and server memory per idle socket.
 *
 *   npm run bench:realtime -w @mesmer/bench
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench_rt   # PostgreSQL instead of PGlite
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';

const IDLE = Number(process.env.BENCH_IDLE ?? 2000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface Started {
  child: ChildProcess;
  port: number;
  setup: { tokens: string[]; threadIds: number[] } | null;
  dataDir: string;
}

async function start(mode: 'mesmer' | 'echo'): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-rt-'));
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'realtime-server.ts'), [mode], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      REDIS_URL: '',
      SEED_DEMO: 'false',
      RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      BENCH_PAIRS: String(PAIRS),
      BENCH_IDLE: String(IDLE),
      TRUST_PROXY: 'loopback',
    },
  });
  const first = await new Promise<{ port: number; setup: Started['setup'] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; setup: Started['setup'] }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
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
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const p = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function measure(mode: 'mesmer' | 'echo') {
  const server = await start(mode);
  const tokens = server.setup?.tokens ?? [];
  const threadIds = server.setup?.threadIds ?? Array.from({ length: PAIRS }, (_, i) => i + 1);
  const base = await rss(server.child);
  const idle = await inBatches(IDLE, 100, (i) => open(server.port, PAIRS * 2 + i, tokens[PAIRS * 2 + i]));
  await new Promise((r) => setTimeout(r, 500));
  const withIdle = await rss(server.child);

  const senders = await inBatches(PAIRS * 2, 50, async (i) => {
    const socket = await open(server.port, i, tokens[i]);
    const threadId = threadIds[Math.floor(i / 2)] as number;
    const ready = new Promise((resolve) => socket.once('bulk_messages', resolve));
    socket.emit('set_thread', threadId, null, tokens[i] ?? null);
    await ready;
    return { socket, threadId, token: tokens[i] ?? '' };
  });

  const latencies: number[] = [];
  let delivered = 0;
  let failed = 0;
  let sent = 0;
  let measuring = true;
  for (const { socket } of senders) {
    socket.on('message', (m: { message: string }) => {
      if (!measuring) return;
      delivered += 1;
      latencies.push(performance.now() - Number(m.message));
    });
  }
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    senders.map(async (s, i) => {
      // Spread the senders over the first interval.
      let due = started + (i / senders.length) * (1000 / RATE);
      while (due < end) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        sent += 1;
        const text = String(performance.now());
        if (mode === 'echo') s.socket.emit('send', s.threadId, text);
        else if ((await postMessage(server.port, s.token, s.threadId, text)) !== 200) failed += 1;
        due += 1000 / RATE;
      }
    }),
  );
  await new Promise((r) => setTimeout(r, 1000)); // let the last deliveries arrive
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  for (const s of [...idle, ...senders.map((x) => x.socket)]) s.disconnect();
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  fs.rmSync(server.dataDir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return {
    mode,
    sent,
    failed,
    delivered,
    expected: sent * 2,
    deliveredPerSecond: delivered / elapsed,
    p50: p(latencies, 0.5),
    p95: p(latencies, 0.95),
    p99: p(latencies, 0.99),
    bytesPerIdleSocket: (withIdle - base) / IDLE,
  };
}

const echo = await measure('echo');
const mesmer = await measure('mesmer');
agent.destroy();
const row = (r: typeof echo) =>
  `| ${r.mode.padEnd(6)} | ${r.sent} | ${r.delivered} / ${r.expected} | ${r.failed} | ${r.deliveredPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.bytesPerIdleSocket / 1024).toFixed(1)} |`;
console.log(
  `\n${IDLE} idle sockets, ${PAIRS * 2} senders in ${PAIRS} two-person threads, ${RATE} msg/s each for ${SECONDS} s (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})\n`,
);
console.log(
  '| server | sent | delivered | failed | delivered/s | p50 ms | p95 ms | p99 ms | KiB per idle socket |',
);
console.log(
  '| ------ | ---- | --------- | ------ | ----------- | ------ | ------ | ------ | ------------------- |',
);
console.log(row(echo));
console.log(row(mesmer));
const ratio = mesmer.deliveredPerSecond / echo.deliveredPerSecond;
console.log(
  `\nratio delivered/s mesmer ÷ echo: ${ratio.toFixed(2)} (target ≥ 0.7); mesmer p95 ${mesmer.p95.toFixed(1)} ms (target < 50 ms)`,
);
process.exit(0);
