import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, testConfig, testDbKind } from '../../test/harness.ts';
import { freePort } from '../../test/server-process.ts';

const { app } = await createTestApp();

describe('GET /api/health', () => {
  it('answers ok after checking the database and the media folder; Redis is not configured', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: testDbKind,
      dependencies: { database: 'up', redis: 'not configured', storage: 'up' },
      storage: 'local',
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });

  it('publishes the OpenAPI document, with the 503 answer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths['/api/health'].get.responses)).toEqual(['200', '503']);
  });
});

describe('GET /api/health with a dependency down', async () => {
  // Redis on a port nobody listens on, and a file where the media folder should be.
  const { dataDir } = testConfig();
  fs.writeFileSync(path.join(dataDir, 'media'), 'not a folder');
  const down = await createTestApp({ dataDir, redisUrl: `redis://127.0.0.1:${await freePort()}` });

  it('answers 503 with the same body, naming what is down, within the check timeout', async () => {
    const started = Date.now();
    const res = await down.app.inject({ method: 'GET', url: '/api/health' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      database: testDbKind,
      dependencies: { database: 'up', redis: 'down', storage: 'down' },
      storage: 'local',
    });
  });

  it('counts the media folder up again once it can be made', async () => {
    fs.rmSync(path.join(dataDir, 'media'));
    const res = await down.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json().dependencies).toEqual({ database: 'up', redis: 'down', storage: 'up' });
  });
});
