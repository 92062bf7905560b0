import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseOnly } from './test/harness.ts';

const mainFile = path.join(import.meta.dirname, 'main.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-main-'));
const port = 39000 + Math.floor(Math.random() * 1000);

function startServer(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

// Generous: a server's first start migrates a new database, slow on a busy machine.
async function waitFor(check: () => boolean, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const c of running) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(embeddedDatabaseOnly)('the server process', () => {
  it('stops with a message naming the bad variable', async () => {
    const server = startServer({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT:');
  });

  it('prints its URL, refuses a second server on the same data folder, and shuts down cleanly', async () => {
    const first = startServer();
    running.push(first.child);
    await waitFor(() => first.output().includes('is running at'));
    expect(first.output()).toContain(`Mesmer is running at http://localhost:${port}`);
    const health = await fetch(`http://localhost:${port}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });

    const second = startServer({ PORT: String(port + 1) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another Mesmer server');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // The lock was released: a new server starts on the same folder.
    const third = startServer();
    running.push(third.child);
    await waitFor(() => third.output().includes('is running at'));
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 240_000);

  it('shuts down with an error, not a crash, when another process takes its database lock', async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-main-'));
    const server = startServer({ DATA_DIR: ownDataDir, PORT: String(port + 2) });
    running.push(server.child);
    await waitFor(() => server.output().includes('is running at'));

    // What a second server does that judged this one gone: its own name in the lock file.
    const lockFile = path.join(ownDataDir, 'db.pid');
    const owner = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    fs.writeFileSync(lockFile, JSON.stringify({ ...owner, pid: process.pid, token: 'another server' }));

    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      `Shutting down: the embedded database's lock was lost. ${lockFile} no longer names this process: the lock was removed or taken over.`,
    );
    expect(server.output()).not.toMatch(/uncaught|ECOMPROMISED|\n\s+at /i);
    fs.rmSync(ownDataDir, { recursive: true, force: true });
  }, 120_000);

  it('makes the demo library of a first start in a process of its own, then serves it', async () => {
    const ownDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-main-'));
    const server = startServer({
      DATA_DIR: ownDataDir,
      PORT: String(port + 3),
      SEED_DEMO: 'force',
      LOG_LEVEL: 'info',
    });
    running.push(server.child);
    // The log is written apart from the banner, so either can come first.
    await waitFor(
      () => server.output().includes('is running at') && server.output().includes('Server listening at'),
      180_000,
    );

    // The demo library's process logged with a pid of its own, and before the server listened.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const logged = lines.map((line) => JSON.parse(line) as { pid: number; msg: string });
    const made = logged.find((entry) => entry.msg.startsWith('made the demo library: analysed '));
    const listening = logged.find((entry) => entry.msg.startsWith('Server listening at'));
    expect(made?.msg).toMatch(/analysed [1-9]\d* files \(0 failed\)/);
    expect(made?.pid).not.toBe(server.child.pid);
    expect(listening?.pid).toBe(server.child.pid);
    expect(logged.indexOf(made as (typeof logged)[number])).toBeLessThan(
      logged.indexOf(listening as (typeof logged)[number]),
    );

    const files = await (await fetch(`http://localhost:${port + 3}/api/files?simple=true`)).json();
    expect(files.totalItems).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    fs.rmSync(ownDataDir, { recursive: true, force: true });
  }, 240_000);
});
