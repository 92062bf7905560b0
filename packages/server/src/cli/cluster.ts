/**
 * `npm run start:cluster`: CLUSTER_PROCESSES identical server processes (default 2) on one machine,
 * behind a round-robin proxy on PORT. They share PostgreSQL (DATABASE_URL), Redis (REDIS_URL: sockets,
 * rate limits) and the media store (S3_BUCKET, or the one DATA_DIR folder on this machine). The embedded
 * database serves one process only, so both URLs are required. The first process starts alone (it
 * migrates and seeds), the rest after it answers; a process that dies is started again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { startRoundRobinProxy } from './round-robin-proxy.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

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
const count = config.clusterProcesses;
const { port, host } = config;

const targets = Array.from({ length: count }, (_, i) => ({ host: '127.0.0.1', port: port + 1 + i }));
const children = new Map<number, ChildProcess>();
let stopping = false;

function startProcess(target: { port: number }): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: String(target.port),
      HOST: '127.0.0.1',
      // The proxy in front is the only client: believe its X-Forwarded-For, nobody else's.
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${port}`,
    },
  });
  children.set(target.port, child);
  child.on('exit', (code, signal) => {
    children.delete(target.port);
    if (stopping) return;
    console.error(
      `server process on port ${target.port} exited (${signal ?? code}); starting it again in 1 s`,
    );
    setTimeout(() => startProcess(target), 1000);
  });
  return child;
}

async function answers(target: { port: number }): Promise<void> {
  for (let i = 0; i < 600; i++) {
    // A process listens once it has migrated; a 503 names a dependency that is down, not a process still starting.
    const ok = await fetch(`http://127.0.0.1:${target.port}/api/health`).then(
      (r) => r.status === 200 || r.status === 503,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server process on port ${target.port} did not start within two minutes`);
}

startProcess(targets[0]);
await answers(targets[0]);
for (const target of targets.slice(1)) startProcess(target);
await Promise.all(targets.slice(1).map(answers));
const proxy = await startRoundRobinProxy({ targets, port, host });
console.log(`\n  ${count} server processes are running behind http://localhost:${port}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    stopping = true;
    await proxy.close();
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    process.exit(0);
  });
}
