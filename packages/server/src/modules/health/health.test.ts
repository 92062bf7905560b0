import { describe, expect, it } from 'vitest';
import { createTestApp, testDbKind } from '../../test/harness.ts';

const { app } = await createTestApp();

describe('GET /api/health', () => {
  it('answers ok after checking the database', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: testDbKind });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });

  it('publishes the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/health']).toBeDefined();
  });
});
