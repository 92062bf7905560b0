// A server of a spec's own, for journeys that need settings the main journey server does not have
// (ads configured, no Patreon or Lovense): the same build and demo library, on its own port and data.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { E2E_WEB_DIST } from './playwright.config.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface OwnServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the server on `port` with `dataDir` and the journey defaults, plus `env`; variables named in
 * `unset` are taken out of the inherited environment. Answers once /api/health does.
 */
export async function startOwnServer(opts: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  unset?: RegExp;
}): Promise<OwnServer> {
  const inherited = { ...process.env };
  if (opts.unset) for (const key of Object.keys(inherited)) if (opts.unset.test(key)) delete inherited[key];
  const child: ChildProcess = spawn('node', ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...inherited,
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      NODE_ENV: 'test',
      SEED_DEMO: 'true',
      RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: E2E_WEB_DIST,
      ...opts.env,
    },
  });
  const url = `http://localhost:${opts.port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server on port ${opts.port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`the server on port ${opts.port} did not start within 150 s`);
}
