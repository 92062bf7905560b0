import { MAX_JSON_DEPTH } from '@mesmer/shared/domain/attachments';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';

const { app } = await createTestApp();
const post = (payload: string) =>
  app.inject({ method: 'POST', url: '/api/token', headers: { 'content-type': 'application/json' }, payload });

describe('JSON bodies', () => {
  it('refuses a body nested deeper than MAX_JSON_DEPTH with a 400 naming body, before parsing it', async () => {
    // Two megabytes of brackets (the body limit): JSON.parse alone takes about a second on it.
    const levels = 1024 * 1024 - 1;
    const res = await post('['.repeat(levels) + ']'.repeat(levels));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'body: nests lists or objects deeper than 64 levels.',
      field: 'body',
    });
    const deepObject = `{"user":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`;
    expect((await post(deepObject)).json()).toMatchObject({ field: 'body' });
  });

  it('parses every other body as before: shallow ones, brackets in strings, bad JSON, prototype keys', async () => {
    const login = await post(JSON.stringify({ user: 'nobody', password: `${'['.repeat(200)}` }));
    expect(login.statusCode).toBe(401);
    const bad = await post('{"user":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('body');
    const proto = await post('{"user":"x","password":"y","__proto__":{"admin":true}}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json().field).toBe('body');
  });
});
