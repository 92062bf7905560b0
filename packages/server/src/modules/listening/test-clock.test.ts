import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp, freshDatabase, MemoryMailer, testConfig } from '../../test/harness.ts';

/** An app as `main.ts` builds it (no injected clock), on its own fresh database. */
async function appWithoutInjectedClock(env: 'test' | 'production') {
  const config = { ...testConfig(), env };
  const database = await freshDatabase();
  const app = await buildApp(config, { database, mailer: new MemoryMailer(), logger: false });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  });
  return app;
}

const testServer = await appWithoutInjectedClock('test');
const productionServer = await appWithoutInjectedClock('production');
const { app: withInjectedClock } = await createTestApp();

describe('POST /api/test/clock', () => {
  it('moves the server clock forward on a test server', async () => {
    const app = testServer;
    const before = app.ctx.clock.now().getTime();
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/clock',
      payload: { advanceMs: 3_600_000 },
    });
    expect(res.statusCode).toBe(200);
    const now = Date.parse(res.json().now);
    expect(now - before).toBeGreaterThanOrEqual(3_600_000);
    expect(now - before).toBeLessThan(3_660_000);
    expect(app.ctx.clock.now().getTime()).toBeGreaterThanOrEqual(now);
  });

  it('rejects a negative step, naming the field', async () => {
    const res = await testServer.inject({
      method: 'POST',
      url: '/api/test/clock',
      payload: { advanceMs: -1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'advanceMs' });
  });

  it('does not exist outside NODE_ENV=test', async () => {
    const res = await productionServer.inject({
      method: 'POST',
      url: '/api/test/clock',
      payload: { advanceMs: 1000 },
    });
    expect(res.statusCode).toBe(404);
  });

  it('does not exist when tests inject their own clock', async () => {
    const res = await withInjectedClock.inject({
      method: 'POST',
      url: '/api/test/clock',
      payload: { advanceMs: 1000 },
    });
    expect(res.statusCode).toBe(404);
  });
});
