import fs from 'node:fs';
import { allRoutes } from '@mesmer/shared/api/routes';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { freshDatabase, MemoryMailer, testConfig } from '../test/harness.ts';

// Built as main.ts builds a test server (no injected clock), so POST /api/test/clock exists too.
const config = testConfig();
const database = await freshDatabase();
const app = await buildApp(config, { database, mailer: new MemoryMailer(), logger: false });
await app.ready();
afterAll(async () => {
  await app.close();
  await database.close();
  fs.rmSync(config.dataDir, { recursive: true, force: true });
});

const declared = allRoutes.map((r) => `${r.method} /api${r.path}`);

/** The /api calls the server serves, as its OpenAPI document lists them. */
async function servedApiCalls() {
  const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
  const paths: Record<string, Record<string, unknown>> = res.json().paths;
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
}

describe('the route contract (packages/shared/src/api)', () => {
  it('declares each call once', () => {
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('is what the server serves under /api: every call registered, nothing registered beside it', async () => {
    for (const route of allRoutes) {
      expect(app.hasRoute({ method: route.method, url: `/api${route.path}` }), route.path).toBe(true);
    }
    expect((await servedApiCalls()).sort()).toEqual([...declared].sort());
  });

  it("puts each call's description in the OpenAPI document", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const removal = res.json().paths['/api/trigger'].delete;
    expect(removal.tags).toEqual(['triggers']);
    expect(removal.description).toMatch(/^Staff only \(CREATE_TRIGGERS\): deletes a trigger/);
    expect(Object.keys(removal.responses).sort()).toEqual(['204', '401', '403', '404']);
  });
});
