/**
 * Real server processes for multi-process and fault tests: a fresh PostgreSQL database per test
 * file, and `main.ts` started as a child process on a free port with the environment given.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';

const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface TempDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the PostgreSQL server of `adminUrl`, dropped (with its connections) by drop(). */
export async function createTempDatabase(adminUrl: string, prefix = 'mesmer_test'): Promise<TempDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** What the process logged on stdout so far (pino's JSON lines). */
  output(): string;
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts main.ts with NODE_ENV=test, no demo, warnings only, its own DATA_DIR unless `env` gives
 * one, and `env` on top; answers once /api/health does.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    }).then(() => {
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, port, child, output: () => output, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop('SIGKILL');
  throw new Error('the server did not start within a minute');
}

/** A socket signed in with `token` (the handshake is the sign-in, decision 020), connected. */
export async function openSocket(base: string, token: string): Promise<Socket> {
  const socket = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(null));
    socket.once('connect_error', reject);
  });
  return socket;
}
