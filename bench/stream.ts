/**
 * Audio delivery benchmark: the media route of the compiled server (`npm start`'s
 * packages/server/dist/main.js, so run `npm run build` first) against nginx (one worker, sendfile)
 * serving the same 350,000,000-byte file from the same folder, in the same run:
 *
 * - whole-file downloads: 3 one after the other, then 4 at once (MB/s);
 * - 64 KiB Range requests at random offsets, 50 connections, BENCH_SECONDS (10) each after a 2 s
 *   warm-up (autocannon: requests/s, p50, p99);
 * - the server's RSS (/proc/<pid>/status VmRSS) before, at its highest during, and after the runs.
 *
 * Our server is asked as the web player asks: a signed-in listener (Bearer token), the file's signed
 * link plus `&session=<listening session>` (one session per connection or download), so every
 * request checks the link, the session user, the file's access and records the bytes served; and
 * as a shared link is: the signed link alone (no user, no listening session). BENCH_ASK=listener or
 * link measures one of the two.
 *
 *   npm run build && npm run bench:stream -w @mesmer/bench
 *
 * nginx runs with Debian's shipped settings (`sendfile on; tcp_nopush on;`); BENCH_NOPUSH=off turns
 * tcp_nopush off, which lifts its 64 KiB range figures (see bench/README.md, "Audio delivery").
 * BENCH_ONLY=ranges leaves the downloads out. The server runs with the node flags and environment of
 * `npm start` (the root package.json's serve script); BENCH_SERVER_FLAGS replaces the flags (`--cpu-prof --cpu-prof-dir=/tmp/prof`,
 * or '' for none).
 * BENCH_ROUNDS (default 2) repeats the comparison; BENCH_PORT (default 3180) is nginx's port, the
 * server takes the next one. Embedded database (PGlite) in a temporary DATA_DIR; DATABASE_URL (an
 * empty database) uses PostgreSQL instead. Only 127.0.0.1 is contacted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { seedRoles } from '../packages/server/src/db/seed/roles.ts';
import { createUser } from '../packages/server/src/test/factories.ts';
import { createFile } from '../packages/server/src/test/library-factories.ts';
import { cpuMsOf } from './process-cpu.ts';
import { wavHeader } from './wav.ts';

const FILE_BYTES = 350_000_000;
const RANGE_BYTES = 64 * 1024;
const CONNECTIONS = 50;
const CONCURRENT_DOWNLOADS = 4;
const SEQUENTIAL_DOWNLOADS = 3;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const nginxPort = Number(process.env.BENCH_PORT ?? 3180);
const serverPort = nginxPort + 1;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = path.join(repoRoot, 'packages/server/dist/main.js');

const TARGETS = { download: 0.5, rps: 0.9, p99: 1.2, rssMb: 64 };

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-stream-'));
const dataDir = path.join(work, 'data');
const mediaDir = path.join(dataDir, 'media');
const children: ChildProcess[] = [];

async function cleanUp() {
  await Promise.all(
    children
      .filter((child) => child.exitCode === null)
      .map((child) => {
        child.kill('SIGTERM');
        return new Promise((resolve) => child.once('exit', resolve));
      }),
  );
  fs.rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  void cleanUp().then(() => process.exit(130));
});

/** A wav header, then a repeated tone: the file is written once, in 1 MB pieces. */
function writeAudio(file: string) {
  const header = wavHeader(FILE_BYTES);
  const piece = Buffer.alloc(1_000_000);
  for (let i = 0; i < piece.length / 2; i++) piece.writeInt16LE(Math.round(3000 * Math.sin(i / 16)), i * 2);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, header);
    for (let at = header.length; at < FILE_BYTES; at += piece.length) {
      fs.writeSync(fd, piece, 0, Math.min(piece.length, FILE_BYTES - at));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The owner, a listener and a public file whose audio is the 350 MB file. */
async function prepareData() {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    pgliteDir: path.join(dataDir, 'db'),
  });
  try {
    await seedRoles(database.db);
    const owner = await createUser(database.db, { roles: ['Administrator'] });
    const listener = await createUser(database.db);
    const file = await createFile(database.db, { name: 'Bench stream', authorId: owner.id });
    fs.mkdirSync(path.dirname(path.join(mediaDir, file.audioKey)), { recursive: true });
    writeAudio(path.join(mediaDir, file.audioKey));
    return { listener, file };
  } finally {
    await database.close();
  }
}

function startNginx(): ChildProcess {
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(dir);
  // The worker may run as another user: let it read the folder and the file.
  for (let p = mediaDir; p.startsWith(work); p = path.dirname(p)) fs.chmodSync(p, 0o755);
  const conf = `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush ${process.env.BENCH_NOPUSH ?? 'on'};
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { audio/wav wav; }
  server {
    listen 127.0.0.1:${nginxPort};
    root ${mediaDir};
  }
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', 'nginx.conf'], {
    stdio: 'inherit',
  });
  children.push(child);
  return child;
}

const serveScript: string[] = JSON.parse(
  fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
).scripts.serve.split(' ');

/** The node flags `npm start` gives the server (the root package.json's serve script). */
function serveFlags(): string[] {
  return serveScript.filter((arg) => arg.startsWith('--'));
}

/** The environment the serve script sets before node (its leading NAME=value words). */
const serveEnv = Object.fromEntries(
  serveScript.filter((arg) => /^[A-Z_]+=/.test(arg)).map((arg) => arg.split('=', 2) as [string, string]),
);

function startServer(): ChildProcess {
  if (!fs.existsSync(serverMain)) throw new Error(`${serverMain} is missing: run npm run build first.`);
  const flags = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? serveFlags();
  const child = spawn(process.execPath, [...flags, serverMain], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...serveEnv,
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      RATE_LIMIT: 'false',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(serverPort),
    },
  });
  children.push(child);
  return child;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(
  port: number,
  urlPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: options.method ?? 'GET',
        headers: { ...options.headers, ...(payload && { 'content-type': 'application/json' }) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function waitUntilUp(port: number, urlPath: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the process on port ${port} exited (${child.exitCode})`);
    try {
      if ((await request(port, urlPath)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing answers on port ${port}`);
}

/** The VmRSS line of /proc/<pid>/status, in bytes. */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

/** One GET of the whole body, counted and dropped; throws unless 200 with every byte. */
function download(port: number, urlPath: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => {
          bytes += d.length;
        });
        res.on('end', () =>
          res.statusCode === 200 && bytes === FILE_BYTES
            ? resolve()
            : reject(new Error(`download: ${res.statusCode}, ${bytes} bytes`)),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** What one target is asked with: a URL per request (the session's), and headers. */
interface Target {
  name: string;
  port: number;
  /** The process that does the serving (nginx's worker), for its CPU time. */
  pid: number;
  /** The URL of the next connection or download (each its own listening session). */
  url(): string;
  headers: Record<string, string>;
}

async function downloads(target: Target, count: number, concurrent: boolean): Promise<number> {
  const started = performance.now();
  if (concurrent) {
    await Promise.all(
      Array.from({ length: count }, () => download(target.port, target.url(), target.headers)),
    );
  } else {
    for (let i = 0; i < count; i++) await download(target.port, target.url(), target.headers);
  }
  return (count * FILE_BYTES) / 1e6 / ((performance.now() - started) / 1000);
}

interface RangeResult {
  rps: number;
  p50: number;
  p99: number;
  /** The serving process's CPU time per request. */
  cpuMs: number;
  non2xx: number;
  errors: number;
}

/** 64 KiB ranges at random offsets, one URL per connection (its listening session). */
async function ranges(target: Target, duration: number): Promise<RangeResult> {
  const rangeRequest = (url: string) => ({
    setupRequest: (req: autocannon.Request) => {
      const start = Math.floor(Math.random() * (FILE_BYTES - RANGE_BYTES));
      return {
        ...req,
        method: 'GET' as const,
        path: url,
        headers: { ...target.headers, range: `bytes=${start}-${start + RANGE_BYTES - 1}` },
      };
    },
  });
  const cpuBefore = cpuMsOf(target.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: CONNECTIONS,
    duration,
    requests: [rangeRequest(target.url())],
    // Each connection is one player: its own URL (listening session) for all its requests.
    setupClient: (client) => client.setRequests([rangeRequest(target.url())]),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: (cpuMsOf(target.pid) - cpuBefore) / result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

interface RoundResult {
  sequential: number;
  concurrent: number;
  range: RangeResult;
}

async function measure(target: Target): Promise<RoundResult> {
  const skipDownloads = process.env.BENCH_ONLY === 'ranges';
  const sequential = skipDownloads ? Number.NaN : await downloads(target, SEQUENTIAL_DOWNLOADS, false);
  const concurrent = skipDownloads ? Number.NaN : await downloads(target, CONCURRENT_DOWNLOADS, true);
  await ranges(target, 2);
  const range = await ranges(target, seconds);
  if (range.non2xx > 0 || range.errors > 0) {
    throw new Error(`${target.name}: ${range.non2xx} answers were not 2xx, ${range.errors} errors`);
  }
  return { sequential, concurrent, range };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const x = (ratio: number) => `${ratio.toFixed(2)}×`;
const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

function print(name: string, r: RoundResult) {
  const rate = (mbs: number) => (Number.isNaN(mbs) ? '-' : mbs.toFixed(0)).padStart(6);
  console.log(
    `  ${name.padEnd(28)} ${rate(r.sequential)} MB/s  ${rate(r.concurrent)} MB/s` +
      `  ${r.range.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.range.p50).padStart(3)} ms  p99 ${String(r.range.p99).padStart(3)} ms` +
      `  CPU ${r.range.cpuMs.toFixed(3)} ms/req`,
  );
}

function compare(name: string, ours: RoundResult, nginx: RoundResult) {
  const rps = ours.range.rps / nginx.range.rps;
  const p99 = ours.range.p99 / Math.max(1, nginx.range.p99);
  let downloads = '';
  if (!Number.isNaN(ours.sequential)) {
    const worst = Math.min(ours.sequential / nginx.sequential, ours.concurrent / nginx.concurrent);
    downloads =
      `downloads ${x(ours.sequential / nginx.sequential)} one at a time, ${x(ours.concurrent / nginx.concurrent)} four at once ` +
      `(target ≥ ${TARGETS.download}×: ${mark(worst >= TARGETS.download)}); `;
  }
  console.log(
    `  ${name}: ${downloads}ranges ${x(rps)} req/s (≥ ${TARGETS.rps}×: ${mark(rps >= TARGETS.rps)}), ` +
      `p99 ${x(p99)} (≤ ${TARGETS.p99}×: ${mark(p99 <= TARGETS.p99)}), CPU per request ${x(ours.range.cpuMs / nginx.range.cpuMs)}`,
  );
}

try {
  const { listener, file } = await prepareData();
  const nginx = startNginx();
  const server = startServer();
  await waitUntilUp(nginxPort, `/${file.audioKey}`, nginx);
  await waitUntilUp(serverPort, '/api/health', server);
  const pid = server.pid as number;
  // nginx's master starts one worker, which serves.
  const nginxWorker = Number(
    fs.readFileSync(`/proc/${nginx.pid}/task/${nginx.pid}/children`, 'utf8').trim().split(' ')[0],
  );

  const login = await request(serverPort, '/api/token', {
    method: 'POST',
    body: { user: listener.username, password: listener.password, timezone: 'UTC' },
  });
  const bearer = { authorization: `Bearer ${JSON.parse(login.body.toString()).token}` };
  const found = await request(serverPort, `/api/files?uuid=${file.uuid}`, { headers: bearer });
  const audioUrl: string = JSON.parse(found.body.toString()).files[0].audioURL;
  // One listening session per connection and per download, as each player has its own.
  const sessions: string[] = [];
  for (let i = 0; i < CONNECTIONS * (rounds * 2 + 1) + 20; i++) {
    const started = await request(serverPort, '/api/session', {
      method: 'POST',
      headers: bearer,
      body: { timezone: 'UTC' },
    });
    sessions.push(JSON.parse(started.body.toString()).token);
  }
  let nextSession = 0;
  const asked = (process.env.BENCH_ASK ?? 'listener,link').split(',');
  const targets: Target[] = [
    { name: 'nginx', port: nginxPort, pid: nginxWorker, url: () => `/${file.audioKey}`, headers: {} },
  ];
  if (asked.includes('listener')) {
    targets.push({
      name: 'server, listener + session',
      port: serverPort,
      pid,
      url: () => `${audioUrl}&session=${sessions[nextSession++ % sessions.length]}`,
      headers: bearer,
    });
  }
  if (asked.includes('link')) {
    targets.push({
      name: 'server, signed link only',
      port: serverPort,
      pid,
      url: () => audioUrl,
      headers: {},
    });
  }

  // Both read the file once first: it is in the page cache for everyone.
  const check = await request(serverPort, `${audioUrl}&session=${sessions[0]}`, {
    headers: { ...bearer, range: 'bytes=100-199' },
  });
  if (check.status !== 206 || check.headers['content-range'] !== `bytes 100-199/${FILE_BYTES}`) {
    throw new Error(`the media route answered ${check.status} ${check.body.toString().slice(0, 200)}`);
  }
  for (const target of targets) await download(target.port, target.url(), target.headers);

  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
  }, 200);

  console.log(
    `\n${FILE_BYTES / 1e6} MB file; ${SEQUENTIAL_DOWNLOADS} downloads one at a time, ${CONCURRENT_DOWNLOADS} at once; ` +
      `64 KiB ranges, ${CONNECTIONS} connections, ${seconds} s. Load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}. Server flags: ${(process.env.BENCH_SERVER_FLAGS ?? serveFlags().join(' ')) || 'none'}, environment: ${
        Object.entries(serveEnv)
          .map(([name, value]) => `${name}=${value}`)
          .join(' ') || 'none'
      }.`,
  );
  for (let round = 1; round <= rounds; round++) {
    console.log(`\nround ${round}${' '.repeat(23)}one at a time  four at once   64 KiB ranges`);
    const results = new Map<string, RoundResult>();
    for (const target of targets) {
      const r = await measure(target);
      results.set(target.name, r);
      print(target.name, r);
    }
    const base = results.get('nginx') as RoundResult;
    for (const target of targets.slice(1))
      compare(target.name, results.get(target.name) as RoundResult, base);
    console.log(
      `  load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  }
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssAfter = rssOf(pid);
  const growth = rssPeak - rssBefore;
  console.log(
    `\nserver RSS: ${mb(rssBefore)} MB before, ${mb(rssPeak)} MB at most during, ${mb(rssAfter)} MB 3 s after; ` +
      `grew ${mb(growth)} MB (target < ${TARGETS.rssMb} MB: ${mark(growth < TARGETS.rssMb * 1024 * 1024)})`,
  );
} finally {
  await cleanUp();
}
