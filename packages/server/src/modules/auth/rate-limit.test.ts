import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emailTokens } from '../../db/schema/index.ts';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { freePort } from '../../test/server-process.ts';

const tooMany = (wait: string) => ({ error: `Too many attempts. Please wait ${wait} and try again.` });
const REQUESTED = { message: 'If an account matches, we sent an e-mail with a reset link.' };
const MINUTE_MS = 60_000;

const limited = await createTestApp({ rateLimit: true });
const unlimited = await createTestApp({ rateLimit: false });
const behindProxy = await createTestApp({ rateLimit: true, trustProxy: ['127.0.0.1'] });

type Inject = typeof limited.app.inject;
const post = (
  inject: Inject,
  url: string,
  payload: Record<string, unknown>,
  ip = '127.0.0.1',
  headers: Record<string, string> = {},
) => inject({ method: 'POST', url, payload, remoteAddress: ip, headers });
const on = (app: typeof limited.app) => app.inject.bind(app);
let ipCount = 0;
/** A client address no other test uses, so each test starts with fresh per-client counts. */
const freshIp = () => `10.1.${Math.floor(++ipCount / 250)}.${(ipCount % 250) + 1}`;

describe('login limits', () => {
  it('allows 20 logins a minute per client, over any number of accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await post(
        on(limited.app),
        '/api/token',
        { user: `sprayed_${i}`, password: 'Summer2026!' },
        ip,
      );
      expect(res.statusCode).toBe(401);
    }
    const user = await createUser(limited.app.ctx.db);
    const blocked = await post(
      on(limited.app),
      '/api/token',
      { user: user.username, password: user.password },
      ip,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany('a minute'));
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected, and the next minute this one may try again.
    expect(
      (await post(on(limited.app), '/api/token', { user: user.username, password: user.password }, freshIp()))
        .statusCode,
    ).toBe(200);
    limited.clock.advance(MINUTE_MS);
    expect(
      (await post(on(limited.app), '/api/token', { user: user.username, password: user.password }, ip))
        .statusCode,
    ).toBe(200);
  });

  it('allows 10 failed logins per account in 15 minutes, whichever name, e-mail or case is typed, then 429 even for the right password', async () => {
    const user = await createUser(limited.app.ctx.db, { username: 'Sprayed', email: 'Sprayed@example.test' });
    const typed = ['Sprayed', 'sprayed', 'SPRAYED', 'sprayed@example.test', 'SPRAYED@EXAMPLE.TEST'];
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        on(limited.app),
        '/api/token',
        { user: typed[i % typed.length], password: `guess ${i}` },
        ip,
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(
      on(limited.app),
      '/api/token',
      { user: 'sprayed@example.test', password: user.password },
      freshIp(),
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany('15 minutes'));
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);

    // Other accounts from the same client still sign in; this one does once the window is over.
    const other = await createUser(limited.app.ctx.db);
    expect(
      (await post(on(limited.app), '/api/token', { user: other.username, password: other.password }, ip))
        .statusCode,
    ).toBe(200);
    limited.clock.advance(15 * MINUTE_MS);
    expect(
      (await post(on(limited.app), '/api/token', { user: 'Sprayed', password: user.password }, ip))
        .statusCode,
    ).toBe(200);
  });

  it('counts parallel guesses before checking them, and does not count successful logins', async () => {
    const user = await createUser(limited.app.ctx.db);
    const guesses = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        post(on(limited.app), '/api/token', { user: user.email, password: `parallel ${i}` }, freshIp()),
      ),
    );
    expect(guesses.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);

    const regular = await createUser(limited.app.ctx.db);
    for (let i = 0; i < 9; i++) {
      expect(
        (await post(on(limited.app), '/api/token', { user: regular.username, password: 'typo' }, freshIp()))
          .statusCode,
      ).toBe(401);
    }
    for (let i = 0; i < 12; i++) {
      const res = await post(
        on(limited.app),
        '/api/token',
        { user: regular.username, password: regular.password },
        freshIp(),
      );
      expect(res.statusCode).toBe(200);
    }
  });

  it('counts a name that matches no account under that name, in any case', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await post(
        on(limited.app),
        '/api/token',
        { user: i % 2 ? 'Ghost_Name' : 'ghost_name', password: 'x' },
        freshIp(),
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(
      on(limited.app),
      '/api/token',
      { user: 'GHOST_NAME', password: 'x' },
      freshIp(),
    );
    expect(blocked.statusCode).toBe(429);
  });
});

describe('sign-up limits', () => {
  it('allows 5 sign-ups per 10 minutes per client, 409s included', async () => {
    const taken = await createUser(limited.app.ctx.db);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await post(
        on(limited.app),
        '/api/register',
        { user: `probe${i}`, email: `probe${i}@x.test`, password: 'password 1' },
        ip,
      );
      expect(res.statusCode).toBe(201);
    }
    const blocked = await post(
      on(limited.app),
      '/api/register',
      { user: 'probe5', email: taken.email, password: 'password 1' },
      ip,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany('10 minutes'));
    const elsewhere = await post(
      on(limited.app),
      '/api/register',
      { user: 'probe6', email: taken.email, password: 'password 1' },
      freshIp(),
    );
    expect(elsewhere.statusCode).toBe(409);
  });

  it('allows 3 sign-ups per e-mail address an hour, in any case and from any client', async () => {
    const taken = await createUser(limited.app.ctx.db, { email: 'Listed@Example.test' });
    for (const email of ['listed@example.test', 'LISTED@EXAMPLE.TEST', 'Listed@Example.test']) {
      const res = await post(
        on(limited.app),
        '/api/register',
        { user: `lister_${ipCount}`, email, password: 'password 1' },
        freshIp(),
      );
      expect(res.statusCode).toBe(409);
    }
    const blocked = await post(
      on(limited.app),
      '/api/register',
      { user: 'lister_x', email: taken.email, password: 'password 1' },
      freshIp(),
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany('an hour'));
  });
});

describe('reset limits', () => {
  it('allows 5 password-reset calls per 10 minutes per client', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await post(
        on(limited.app),
        '/api/reset_password',
        { username: 'someone', email: 'someone@x.test' },
        ip,
      );
      expect(res.statusCode).toBe(200);
    }
    const blocked = await post(
      on(limited.app),
      '/api/reset_password',
      { token: 'abc', password: 'password 1' },
      ip,
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany('10 minutes'));
  });

  it('mails one account at most 3 reset links an hour, answering every request the same', async () => {
    const user = await createUser(limited.app.ctx.db, {
      username: 'Mailbombed',
      email: 'Mailbombed@example.test',
    });
    limited.mailer.sent = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(
        on(limited.app),
        '/api/reset_password',
        { username: i % 2 ? 'MAILBOMBED' : 'mailbombed', email: user.email },
        freshIp(),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(REQUESTED);
    }
    await vi.waitFor(() => expect(limited.mailer.sent).toHaveLength(3));
    const stored = await limited.app.ctx.db.select().from(emailTokens).where(eq(emailTokens.userId, user.id));
    expect(stored).toHaveLength(3);
    limited.clock.advance(60 * MINUTE_MS);
    await post(
      on(limited.app),
      '/api/reset_password',
      { username: 'mailbombed', email: user.email },
      freshIp(),
    );
    await vi.waitFor(() => expect(limited.mailer.sent).toHaveLength(4));
    expect(limited.mailer.sent.every((m) => m.to === 'Mailbombed@example.test')).toBe(true);
  });

  it('answers before the mail is sent, the same whether or not an account matches', async () => {
    const user = await createUser(unlimited.app.ctx.db);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const send = unlimited.mailer.send.bind(unlimited.mailer);
    unlimited.mailer.send = async (message) => {
      await held;
      await send(message);
    };
    try {
      const matching = await post(on(unlimited.app), '/api/reset_password', {
        username: user.username,
        email: user.email,
      });
      const other = await post(on(unlimited.app), '/api/reset_password', {
        username: user.username,
        email: 'someone.else@example.test',
      });
      for (const res of [matching, other]) {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.json()).toEqual(REQUESTED);
      }
      expect(matching.body).toBe(other.body);
      expect(unlimited.mailer.sent).toEqual([]);
    } finally {
      release();
      unlimited.mailer.send = send;
    }
    await vi.waitFor(() => expect(unlimited.mailer.sent.map((m) => m.to)).toEqual([user.email]));
  });
});

describe('client addresses', () => {
  const spoofed = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i + 1}` });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const res = await post(
        on(limited.app),
        '/api/token',
        { user: `spoof_${i}`, password: 'x' },
        ip,
        spoofed(i),
      );
      expect(res.statusCode).toBe(401);
    }
    expect(
      (await post(on(limited.app), '/api/token', { user: 'spoof_20', password: 'x' }, ip, spoofed(20)))
        .statusCode,
    ).toBe(429);

    const signUpIp = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await post(
        on(limited.app),
        '/api/register',
        { user: `spoofer${i}`, email: `spoofer${i}@x.test`, password: 'password 1' },
        signUpIp,
        spoofed(i),
      );
      expect(res.statusCode).toBe(201);
    }
    expect(
      (
        await post(
          on(limited.app),
          '/api/register',
          { user: 'spoofer5', email: 'spoofer5@x.test', password: 'password 1' },
          signUpIp,
          spoofed(5),
        )
      ).statusCode,
    ).toBe(429);

    const resetIp = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await post(
        on(limited.app),
        '/api/reset_password',
        { username: 'spoofer0', email: 'spoofer0@x.test' },
        resetIp,
        spoofed(i),
      );
      expect(res.statusCode).toBe(200);
    }
    expect(
      (
        await post(
          on(limited.app),
          '/api/reset_password',
          { username: 'spoofer0', email: 'spoofer0@x.test' },
          resetIp,
          spoofed(5),
        )
      ).statusCode,
    ).toBe(429);
  });

  it('counts per forwarded client behind a trusted proxy, and ignores the header from anyone else', async () => {
    const signUp = (i: number, ip: string, forwardedFor: string) =>
      post(
        on(behindProxy.app),
        '/api/register',
        { user: `proxied${i}`, email: `proxied${i}@x.test`, password: 'password 1' },
        ip,
        { 'x-forwarded-for': forwardedFor },
      );
    for (let i = 0; i < 5; i++) expect((await signUp(i, '127.0.0.1', '198.51.100.1')).statusCode).toBe(201);
    expect((await signUp(5, '127.0.0.1', '198.51.100.1')).statusCode).toBe(429);
    expect((await signUp(6, '127.0.0.1', '198.51.100.2')).statusCode).toBe(201);
    // Not from the proxy: the header is the client's own claim, so the socket address counts.
    const direct = freshIp();
    for (let i = 7; i < 12; i++) expect((await signUp(i, direct, `198.51.100.${i}`)).statusCode).toBe(201);
    expect((await signUp(12, direct, '198.51.100.12')).statusCode).toBe(429);
  });
});

describe('Redis unreachable', async () => {
  const redisDown = await createTestApp({ rateLimit: true, redisUrl: 'redis://127.0.0.1:1' });

  it('still limits, counting in the process meanwhile, without holding requests', async () => {
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      const res = await post(on(redisDown.app), '/api/token', { user: `offline_${i}`, password: 'x' });
      expect(res.statusCode).toBe(401);
    }
    expect(
      (await post(on(redisDown.app), '/api/token', { user: 'offline_x', password: 'x' })).json(),
    ).toEqual(tooMany('a minute'));
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('RATE_LIMIT=false', () => {
  it('does not limit anything', async () => {
    const inject = on(unlimited.app);
    for (let i = 0; i < 25; i++) {
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

  it('counts attempts on every server process together, under keys of a fixed size that expire', async () => {
    const attempt = (app: typeof first.app, user: string) =>
      post(on(app), '/api/token', { user, password: 'wrong password' }, '10.200.0.1');
    // Per account (here a name without one): 10 failures over both processes.
    for (let i = 0; i < 6; i++) expect((await attempt(first.app, 'shared_target')).statusCode).toBe(401);
    for (let i = 0; i < 4; i++) expect((await attempt(second.app, 'Shared_Target')).statusCode).toBe(401);
    expect((await attempt(second.app, 'shared_target')).json()).toEqual(tooMany('15 minutes'));
    expect((await attempt(first.app, 'SHARED_TARGET')).statusCode).toBe(429);
    // Per client: 20 a minute over both processes, whatever the names.
    for (let i = 12; i < 20; i++) {
      expect((await attempt(i % 2 ? first.app : second.app, `spread_${i}`)).statusCode).toBe(401);
    }
    expect((await attempt(first.app, 'someone_else')).statusCode).toBe(429);
    expect((await attempt(second.app, 'someone_else')).statusCode).toBe(429);

    const client = new Redis(redis?.url ?? '');
    try {
      const keys = await client.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key.length).toBeLessThan(80);
        expect(await client.pttl(key)).toBeGreaterThan(0);
      }
    } finally {
      client.disconnect();
    }
  });
});
