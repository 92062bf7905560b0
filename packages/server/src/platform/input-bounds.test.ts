import { randomUUID } from 'node:crypto';
import { INT_MAX } from '@mesmer/shared/domain/limits';
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';

/**
 * Input the database cannot hold (NUL in text, numbers above its integer columns) and input
 * too large to be meant must answer 400 naming the field, never reach SQL and fail there with a 500.
 */
const { app } = await createTestApp();
const TOO_BIG = INT_MAX + 1;
let token: string;

beforeAll(async () => {
  ({ token } = await createSignedInUser(app, { roles: ['Administrator'] }));
});

type Request = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string>;
  body?: object;
};

async function send(r: Request) {
  const res = await app.inject({
    method: r.method,
    url: r.url,
    query: r.query,
    payload: r.body,
    headers: authHeader(token),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('the attacks that answered 500', () => {
  const nul = 'a\0b';
  it.each<[string, Request]>([
    ['searchQuery', { method: 'GET', url: '/api/files', query: { searchQuery: nul } }],
    ['searchQuery', { method: 'GET', url: '/api/playlists', query: { searchQuery: nul } }],
    ['username', { method: 'GET', url: '/api/user', query: { username: nul } }],
    ['name', { method: 'GET', url: '/api/triggers', query: { name: nul } }],
    ['name', { method: 'POST', url: '/api/triggers', body: { name: nul } }],
    ['user', { method: 'POST', url: '/api/token', body: { user: nul, password: 'whatever1' } }],
    ['user', { method: 'GET', url: '/api/leaderboard/user', query: { user: nul } }],
    ['name', { method: 'POST', url: '/api/playlists', body: { name: nul, expLevel: 1 } }],
    ['name', { method: 'PUT', url: '/api/playlists', body: { id: 1, name: nul } }],
  ])('a NUL in %s answers 400 naming it (%#)', async (field, request) => {
    expect(await send(request)).toEqual({
      status: 400,
      body: { error: `${field}: must not contain NUL characters`, field },
    });
  });

  const big = String(TOO_BIG);
  it.each<[string, Request]>([
    ['ids', { method: 'GET', url: '/api/playlists', query: { ids: big } }],
    ['user', { method: 'GET', url: '/api/playlists', query: { user: big } }],
    ['creatorIds', { method: 'GET', url: '/api/files', query: { creatorIds: `1,${big}` } }],
    ['includeFiles', { method: 'GET', url: '/api/playlists', query: { includeFiles: big } }],
    ['minDuration', { method: 'GET', url: '/api/files', query: { minDuration: big } }],
    ['trigger', { method: 'GET', url: '/api/files', query: { trigger: big } }],
    ['id', { method: 'GET', url: '/api/series', query: { id: big } }],
    ['id', { method: 'PUT', url: '/api/userseries', body: { id: TOO_BIG, playlistIndex: 1 } }],
    ['id', { method: 'DELETE', url: '/api/playlist', query: { id: big } }],
    ['id', { method: 'GET', url: '/api/playlist/user', query: { id: big } }],
    ['id', { method: 'PUT', url: '/api/playlist/user', body: { id: TOO_BIG, isLiked: true } }],
    ['id', { method: 'PUT', url: '/api/playlists', body: { id: TOO_BIG } }],
    ['fileIds.0', { method: 'PUT', url: '/api/playlists', body: { id: 1, fileIds: [TOO_BIG] } }],
  ])('2147483648 in %s answers 400 naming it (%#)', async (field, request) => {
    const res = await send(request);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.error).toMatch(new RegExp(`^${field}: .*2147483647`));
  });

  it('a 2 MB login user answers 400 naming it', async () => {
    const res = await send({
      method: 'POST',
      url: '/api/token',
      body: { user: 'a'.repeat(2_000_000), password: 'whatever1' },
    });
    expect(res).toEqual({
      status: 400,
      body: { error: 'user: must be at most 254 characters', field: 'user' },
    });
  });

  it('a body that is not JSON, or empty, answers 400 naming the body', async () => {
    for (const payload of ['{"user":', '']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/token',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ error: expect.any(String), field: 'body' });
    }
  });

  it('an id list longer than 100 ids answers 400', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect(await send({ method: 'GET', url: '/api/playlists', query: { ids } })).toEqual({
      status: 400,
      body: { error: 'ids: must list at most 100 ids', field: 'ids' },
    });
  });
});

/** The parts of an OpenAPI schema the walk reads. */
interface Schema {
  type?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
interface Operation {
  parameters?: { in: 'query' | 'path' | 'header'; name: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** A value the schema accepts, for the fields a probe leaves alone. */
function valid(s: Schema): unknown {
  if (s.enum) return s.enum[0];
  if (s.type === 'integer' || s.type === 'number') return Math.max(s.minimum ?? 1, 1);
  if (s.type === 'boolean') return true;
  // An array that must not be empty gets one valid element (a probe then spoils one of its fields).
  if (s.type === 'array') return s.minItems && s.items ? [valid(s.items)] : [];
  if (s.type === 'object') {
    return Object.fromEntries((s.required ?? []).map((k) => [k, valid(s.properties?.[k] ?? {})]));
  }
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'email') return 'someone@example.test';
  if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
  if (s.pattern === '^\\d+(,\\d+)*$') return '1';
  return 'a'.repeat(Math.min(Math.max(s.minLength ?? 0, 8), s.maxLength ?? 8));
}

/** Every bad value for one field: [path of the field, value at that path]. */
function probes(path: string, s: Schema): [string, unknown][] {
  if (s.type === 'object') {
    return Object.entries(s.properties ?? {}).flatMap(([k, p]) =>
      probes(`${path}.${k}`, p).map(([at, v]): [string, unknown] => [at, v]),
    );
  }
  if (s.type === 'array' && s.items) return probes(`${path}.0`, s.items);
  if (s.type === 'integer' || s.type === 'number') {
    return [TOO_BIG, -1]
      .filter((n) => n < (s.minimum ?? -Infinity) || n > (s.maximum ?? Infinity))
      .map((n) => [path, n]);
  }
  if (s.type === 'string' || s.enum)
    return [
      [path, 'a\0b'],
      [path, 'a'.repeat((s.maxLength ?? 100_000) + 1)],
    ];
  return [];
}

/** `base` with `value` put at the dotted `path` (arrays get one element). */
function put(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...base, [head]: value };
  if (rest[0] === '0') {
    const element = ((base[head] as Record<string, unknown>[] | undefined)?.[0] ?? {}) as Record<
      string,
      unknown
    >;
    return { ...base, [head]: [rest.length === 1 ? value : put(element, rest.slice(1).join('.'), value)] };
  }
  const inner = (base[head] as Record<string, unknown> | undefined) ?? {};
  return { ...base, [head]: put(inner, rest.join('.'), value) };
}

/** The shape of a field in the contract: strings bounded in length, numbers within integer columns. */
function boundsProblems(path: string, s: Schema): string[] {
  if (s.type === 'object')
    return Object.entries(s.properties ?? {}).flatMap(([k, p]) => boundsProblems(`${path}.${k}`, p));
  if (s.type === 'array' && s.items) return boundsProblems(`${path}.0`, s.items);
  if (s.type === 'string' && !s.enum && !s.format && s.maxLength === undefined)
    return [`${path} has no maxLength`];
  if ((s.type === 'integer' || s.type === 'number') && !(s.maximum !== undefined && s.maximum <= INT_MAX)) {
    return [`${path} has no maximum within ${INT_MAX}`];
  }
  return [];
}

describe('every route with a schema', () => {
  const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const routes = Object.entries(doc.paths).flatMap(([url, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase() as Request['method'],
      url,
      op,
    })),
  );

  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  it('bounds every string and number of the /api contract', () => {
    const problems = routes
      .filter((r) => r.url.startsWith('/api/'))
      .flatMap(({ method, url, op }) =>
        [
          ...(op.parameters ?? []).flatMap((p) => boundsProblems(p.name, p.schema)),
          ...boundsProblems('body', op.requestBody?.content['application/json']?.schema ?? {}),
        ].map((p) => `${method} ${url}: ${p}`),
      );
    expect(problems).toEqual([]);
  });

  for (const { method, url, op } of routes) {
    const params = op.parameters ?? [];
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    if (params.length === 0 && !bodySchema) continue;

    it(`${method} ${url} answers 4xx, never 5xx, to NUL, over-long and out-of-range values`, async () => {
      const base = {
        query: Object.fromEntries(
          params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(valid(p.schema))]),
        ),
        path: Object.fromEntries(
          params.filter((p) => p.in === 'path').map((p) => [p.name, String(valid(p.schema))]),
        ),
        body: bodySchema ? (valid(bodySchema) as Record<string, unknown>) : undefined,
      };
      const cases = [
        ...params
          .filter((p) => p.in !== 'header')
          .flatMap((p) => probes(p.name, p.schema).map(([field, value]) => ({ where: p.in, field, value }))),
        ...(bodySchema ? probes('', bodySchema) : []).map(([field, value]) => ({
          where: 'body',
          field: field.slice(1),
          value,
        })),
      ];
      const failures: string[] = [];
      for (const c of cases) {
        const pathValues = c.where === 'path' ? { ...base.path, [c.field]: String(c.value) } : base.path;
        const res = await app.inject({
          method,
          url: url.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(pathValues[name])),
          query: c.where === 'query' ? { ...base.query, [c.field]: String(c.value) } : base.query,
          payload: c.where === 'body' ? put(base.body ?? {}, c.field, c.value) : base.body,
          headers: authHeader(token),
        });
        const shown = `${c.where} ${c.field}=${JSON.stringify(String(c.value).slice(0, 12))}`;
        if (url.startsWith('/api/')) {
          const field = res.statusCode === 400 ? res.json().field : undefined;
          if (res.statusCode !== 400 || field !== c.field)
            failures.push(`${shown}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        } else if (res.statusCode < 300 || res.statusCode >= 500) {
          // Outside the API (media, downloads) a refusal may also be a redirect to the not-found page.
          failures.push(`${shown}: ${res.statusCode}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
