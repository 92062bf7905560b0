/**
 * The memory flood: a few hundred sign-in attempts with 2 MB usernames, each
 * claiming another client through X-Forwarded-For, against a freshly started server
 * (packages/server/src/main.ts, embedded database in a temporary DATA_DIR, rate limits on).
 * Prints the server's resident memory before, right after, and once the limit windows
 * have ended. Linux only (reads /proc). Runs by hand: npm run bench:login-flood -w @mesmer/bench
 *
 * BENCH_REQUESTS (300), BENCH_USER_BYTES (2,000,000), BENCH_WAIT_SECONDS (65: one login window
 * and one sweep of the memory store).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, startBenchServer } from './server-process.ts';

const requests = Number(process.env.BENCH_REQUESTS ?? 300);
const userBytes = Number(process.env.BENCH_USER_BYTES ?? 2_000_000);
const waitSeconds = Number(process.env.BENCH_WAIT_SECONDS ?? 65);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

function rssMb(child: ChildProcess): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

const bench = await startBenchServer({ root, readyPath: '/api/leaderboard' });
const { base, child: server } = bench;

try {
  // Warm-up: a few ordinary failed logins so the login path is loaded before measuring.
  for (let i = 0; i < 5; i++) {
    await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
      body: JSON.stringify({ user: `warm_up_${i}`, password: 'wrong password' }),
    });
  }
  await sleep(1000);
  const before = rssMb(server);

  const statuses = new Map<number, number>();
  const started = Date.now();
  const concurrency = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const i = next++;
        const user = `${i.toString(36)}_${'x'.repeat(userBytes)}`;
        const res = await fetch(`${base}/api/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
          },
          body: JSON.stringify({ user, password: 'wrong password' }),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  await sleep(1000);
  const after = rssMb(server);

  await sleep(waitSeconds * 1000);
  // One more request lets the memory store sweep the windows that ended.
  await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'after_the_window', password: 'wrong password' }),
  });
  await sleep(1000);
  const afterWindow = rssMb(server);

  const answered = [...statuses].map(([status, n]) => `${n}× ${status}`).join(', ');
  console.log(
    `${requests} logins with ${userBytes.toLocaleString('en')}-byte usernames in ${seconds.toFixed(1)} s: ${answered}`,
  );
  console.log(
    `server RSS: before ${before} MB, right after ${after} MB, ${waitSeconds} s later ${afterWindow} MB`,
  );
} finally {
  await bench.stop();
}
