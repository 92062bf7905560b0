import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const TOO_MANY = { error: 'Too many attempts. Please wait a minute and try again.' };

const limited = await createTestApp({ rateLimit: true });
const unlimited = await createTestApp({ rateLimit: false });

type Inject = typeof limited.app.inject;
const post = (inject: Inject, url: string, payload: Record<string, unknown>, ip = '127.0.0.1') =>
  inject({ method: 'POST', url, payload, remoteAddress: ip });

describe('rate limits', () => {
  it('allows 10 logins a minute per client and account name, then answers 429 even for the right password', async () => {
    const inject = limited.app.inject.bind(limited.app);
    const user = await createUser(limited.app.ctx.db);
    for (let i = 0; i < 10; i++) {
      const res = await post(inject, '/api/token', { user: user.username, password: 'wrong password' });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(inject, '/api/token', {
      user: user.username.toUpperCase(),
      password: user.password,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    // Another account from the same client, and the same account from elsewhere, still get through.
    const other = await createUser(limited.app.ctx.db);
    expect(
      (await post(inject, '/api/token', { user: other.username, password: other.password })).statusCode,
    ).toBe(200);
    const elsewhere = await post(
      inject,
      '/api/token',
      { user: user.username, password: user.password },
      '10.9.8.7',
    );
    expect(elsewhere.statusCode).toBe(200);
  });

  it('allows 5 sign-ups per 10 minutes per client', async () => {
    const inject = limited.app.inject.bind(limited.app);
    const ip = '10.0.0.5';
    for (let i = 0; i < 5; i++) {
      const res = await post(
        inject,
        '/api/register',
        { user: `signup${i}`, email: `s${i}@x.test`, password: 'password 1' },
        ip,
      );
      expect(res.statusCode).toBe(201);
    }
    const blocked = await post(
      inject,
      '/api/register',
      { user: 'signup5', email: 's5@x.test', password: 'password 1' },
      ip,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    const elsewhere = await post(
      inject,
      '/api/register',
      { user: 'signup6', email: 's6@x.test', password: 'password 1' },
      '10.0.0.6',
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('allows 5 password-reset calls per 10 minutes per client', async () => {
    const inject = limited.app.inject.bind(limited.app);
    const ip = '10.0.0.7';
    for (let i = 0; i < 5; i++) {
      const res = await post(
        inject,
        '/api/reset_password',
        { username: 'someone', email: 'someone@x.test' },
        ip,
      );
      expect(res.statusCode).toBe(200);
    }
    const blocked = await post(inject, '/api/reset_password', { token: 'abc', password: 'password 1' }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
  });

  it('does not limit anything when RATE_LIMIT=false', async () => {
    const inject = unlimited.app.inject.bind(unlimited.app);
    for (let i = 0; i < 12; i++) {
      const res = await post(inject, '/api/token', { user: 'nobody', password: 'wrong password' });
      expect(res.statusCode).toBe(401);
    }
    for (let i = 0; i < 7; i++) {
      const res = await post(inject, '/api/reset_password', { username: 'nobody', email: 'nobody@x.test' });
      expect(res.statusCode).toBe(200);
    }
  });
});

// With REDIS_URL, processes share the counts. Needs the redis-server program; skipped without it.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return { url: `redis://127.0.0.1:${port}`, process: child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('redis-server did not start');
}

describe.skipIf(!hasRedis)('rate limits shared through Redis', async () => {
  const redis = hasRedis ? await startRedis() : undefined;
  afterAll(() => {
    redis?.process.kill();
  });
  const first = await createTestApp({ rateLimit: true, redisUrl: redis?.url });
  const second = await createTestApp({ rateLimit: true, redisUrl: redis?.url });

  it('counts attempts on every server process together', async () => {
    const attempt = (app: typeof first.app) =>
      post(app.inject.bind(app), '/api/token', { user: 'shared_target', password: 'wrong password' });
    for (let i = 0; i < 6; i++) expect((await attempt(first.app)).statusCode).toBe(401);
    for (let i = 0; i < 4; i++) expect((await attempt(second.app)).statusCode).toBe(401);
    const blocked = await attempt(second.app);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    expect((await attempt(first.app)).statusCode).toBe(429);
  });
});
