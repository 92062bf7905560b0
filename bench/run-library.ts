/**
 * Library read benchmark: starts the server (buildApp, as in production) on DATABASE_URL in a
 * child process, then measures requests/s and p50/p99 latency with autocannon at 50
 * connections for GET /api/files and GET /api/playlists with searches, filters and sorts,
 * next to a trivial JSON route and /api/health of the same server.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mesmer_bench npm run bench:library -w @mesmer/bench
 *
 * BENCH_SECONDS (default 10) sets each scenario's length; BENCH_ONLY=<substring> runs a subset.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const CONNECTIONS = 50;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const SCENARIOS: [string, string][] = [
  ['trivial JSON route', '/api/bench/ping'],
  ['health (select 1)', '/api/health'],
  ['files: newest first (default)', '/api/files'],
  ['files: search "ocean"', '/api/files?searchQuery=ocean'],
  ['files: search "velvet spiral"', '/api/files?searchQuery=velvet%20spiral'],
  ['files: nameQuery "drift"', '/api/files?nameQuery=drift'],
  ['files: name A-Z, page 50', '/api/files?sortType=name&sortDirection=asc&pageOffset=1000'],
  [
    'files: most played, types 1,2, 15-30 min',
    '/api/files?sortType=playcount&fileTypes=1,2&minDuration=900000&maxDuration=1800000',
  ],
  [
    'files: shortest, haptics only, unlocked',
    '/api/files?sortType=duration&sortDirection=asc&showNonHaptics=false&showLocked=false',
  ],
  ['files: trigger 17', '/api/files?trigger=17'],
  ['files: music, creators 2,3', '/api/files?fileTypes=7,9&creatorIds=2,3'],
  ['playlists: newest first (default)', '/api/playlists'],
  ['playlists: core, by level', '/api/playlists?core=true&sort=explevel&sortDir=asc'],
  ['playlists: most liked, simple', '/api/playlists?sort=likes&simple=true'],
  ['playlists: search "ocean"', '/api/playlists?searchQuery=ocean'],
  ['playlists: including file 4242', '/api/playlists?includeFiles=4242'],
  ['playlists: user 777', '/api/playlists?user=777'],
];

async function serve() {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { loadConfig } = await import('../packages/server/src/config.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    RATE_LIMIT: 'false',
  });
  const app = await buildApp(config, { logger: false });
  app.get('/api/bench/ping', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('disconnect', async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, port };
}

async function measure() {
  if (!process.env.DATABASE_URL) {
    console.error('Set DATABASE_URL (fill it first with npm run bench:generate -w @mesmer/bench).');
    process.exit(1);
  }
  const { child, port } = await startServer();
  const only = process.env.BENCH_ONLY;
  const rows: string[] = [];
  try {
    for (const [title, url] of SCENARIOS.filter(([t]) => !only || t.includes(only))) {
      const target = `http://127.0.0.1:${port}${url}`;
      const check = await fetch(target);
      if (!check.ok) throw new Error(`${url} answered ${check.status}`);
      // A short warm-up so caches and plans settle before the measured run.
      await autocannon({ url: target, connections: CONNECTIONS, duration: 1 });
      const r = await autocannon({ url: target, connections: CONNECTIONS, duration: seconds });
      const failed = r.non2xx + r.errors + r.timeouts;
      const row = `| ${title} | \`${url}\` | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} |${failed ? ` ${failed} failed |` : ''}`;
      rows.push(row);
      console.log(row);
    }
  } finally {
    child.disconnect();
  }
  console.log(
    `\n${CONNECTIONS} connections, ${seconds} s per scenario, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`,
  );
  console.log('| scenario | path | requests/s | p50 ms | p99 ms |\n|---|---|---|---|---|');
  console.log(rows.join('\n'));
}

if (process.argv.includes('--serve')) await serve();
else await measure();
