/**
 * One production server process for a benchmark: packages/server/src/main.ts on a free port, the
 * embedded database in a temporary DATA_DIR, rate limits on, no demo library (unless `env` says
 * otherwise). Answers once the server answers `readyPath`; `stop()` ends it and removes its data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../packages/server/src/test/server-process.ts';

export interface BenchServer {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startBenchServer(opts: {
  root: string;
  readyPath: string;
  /** Settings over the defaults above (e.g. SEED_DEMO, WEB_DIST). */
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: opts.root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SEED_DEMO: 'false',
      RATE_LIMIT: 'true',
      LOG_LEVEL: 'error',
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}${opts.readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, child, stop };
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with code ${child.exitCode} before it answered`);
    }
    if (i > 600) {
      await stop();
      throw new Error('the server did not start within 60 s');
    }
    await sleep(100);
  }
}
