/**
 * Starts `library-server.ts` (production settings, no demo seed, no rate limit) in a child process on
 * a database URL and answers with its port once every server process listens. BENCH_PROFILE=<dir>:
 * the server writes a V8 CPU profile there when it stops.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export async function startLibraryServer(opts: {
  databaseUrl: string;
  dataDir: string;
  /** Server processes sharing the port (BENCH_SERVERS). */
  servers?: number;
  /** More environment for the server, e.g. LIBRARY_CACHE_SECONDS. */
  env?: Record<string, string>;
}): Promise<{ child: ChildProcess; port: number }> {
  const serverFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'library-server.ts');
  const profile = process.env.BENCH_PROFILE;
  const child = fork(serverFile, [], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      RATE_LIMIT: 'false',
      DATA_DIR: opts.dataDir,
      BENCH_SERVERS: String(opts.servers ?? 1),
      ...opts.env,
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, port };
}
