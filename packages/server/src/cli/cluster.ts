/**
 * `npm run start:cluster`: CLUSTER_PROCESSES identical server processes (default 2) on one machine,
 * sharing PORT through node:cluster (the primary accepts each connection and hands it to the next
 * worker in turn). They share PostgreSQL (DATABASE_URL), Redis (REDIS_URL: sockets, rate limits) and
 * the media store (S3_BUCKET, or the one DATA_DIR folder on this machine). The embedded database
 * serves one process only, so both URLs are required. The first worker starts alone (it migrates and
 * seeds), the rest once it listens; a worker that dies is forked again; SIGTERM or SIGINT stops every
 * worker as `npm start` stops (main.ts) and then the primary. Decision 042, "Several processes".
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../config.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

/** How long a dead worker's replacement waits, so a worker that cannot start does not spin the CPU. */
const RESTART_DELAY_MS = 1000;

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
if (!config.databaseUrl || !config.redisUrl) {
  console.error(
    'start:cluster needs DATABASE_URL (PostgreSQL) and REDIS_URL: the embedded database and in-process ' +
      'rate limits and sockets serve one process only. See the README, "Several processes".',
  );
  process.exit(1);
}

// Round-robin in the primary on every platform (Windows would otherwise let the workers race for
// connections). The workers run main.ts with this process's node flags (`--import tsx`).
cluster.schedulingPolicy = cluster.SCHED_RR;
cluster.setupPrimary({ exec: main, execArgv: process.execArgv });

let stopping = false;

interface Forked {
  worker: Worker;
  /** Resolves once the worker listens on PORT; rejects if it exits first. */
  listening: Promise<void>;
}

function fork(): Forked {
  const worker = cluster.fork();
  const listening = new Promise<void>((resolve, reject) => {
    worker.once('listening', () => resolve());
    worker.once('exit', (code, signal) => reject(new Error(`exited (${signal ?? code}) before it listened`)));
  });
  return { worker, listening };
}

/** A worker that exits while the cluster runs is forked again (and so is its replacement). */
function replaceWhenDead(worker: Worker) {
  worker.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `server process ${worker.process.pid} exited (${signal ?? code}); starting another in ${RESTART_DELAY_MS / 1000} s`,
    );
    setTimeout(() => {
      if (stopping) return;
      const replacement = fork();
      replaceWhenDead(replacement.worker);
      replacement.listening.then(
        () => console.log(`server process ${replacement.worker.process.pid} replaces ${worker.process.pid}`),
        () => undefined, // its exit is a death like any other: replaceWhenDead tries again
      );
    }, RESTART_DELAY_MS);
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    // Each worker drains its requests and sockets and closes its database (main.ts), then exits.
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            if (worker.isDead()) return resolve(null);
            worker.once('exit', resolve);
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit(0);
  });
}

try {
  const first = fork();
  await first.listening;
  replaceWhenDead(first.worker);
  const rest = Array.from({ length: config.clusterProcesses - 1 }, fork);
  await Promise.all(rest.map(({ worker, listening }) => listening.then(() => replaceWhenDead(worker))));
  const pids = [first, ...rest].map(({ worker }) => worker.process.pid).join(', ');
  console.log(`\n  ${config.clusterProcesses} server processes (${pids}) are serving ${config.publicUrl}\n`);
} catch (err) {
  // A worker that cannot start (configuration, database) would fail the same way again.
  console.error(`start:cluster: a server process ${(err as Error).message}; stopping.`);
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  process.exitCode = 1;
}
