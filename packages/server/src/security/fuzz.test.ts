// Fuzzing from the route contract: for every route in allRoutes, generated requests
// (its zod schemas' values mixed with hostile ones, see request-arbitrary.ts) as a visitor, a user
// and an administrator. No answer may be a 5xx or show a stack trace or SQL, and afterwards nothing
// in the database breaks the rules the schemas stand for. At least 10,000 requests in all.

import type { RouteDefinition } from '@mesmer/shared/api/contract';
import { allRoutes } from '@mesmer/shared/api/routes';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { isValidUsername } from '@mesmer/shared/domain/username';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../test/factories.ts';
import { startFakeLovense } from '../test/fakes/lovense.ts';
import { startFakePatreon } from '../test/fakes/patreon.ts';
import { createTestApp } from '../test/harness.ts';
import { createFile, createPlaylist, createTrigger } from '../test/library-factories.ts';
import { deepJson, hostileValue, toQuery, valueFor } from './request-arbitrary.ts';

const TOTAL_CASES = 10_000;
const runsPerRoute = Math.ceil(TOTAL_CASES / allRoutes.length);

// Lovense and Patreon answer (fakes): without them each of their calls would be the documented 503.
const lovense = await startFakeLovense();
afterAll(() => lovense.close());
const patreon = await startFakePatreon();
afterAll(() => patreon.close());
const { app } = await createTestApp({
  lovense: { developerToken: lovense.developerToken, apiUrl: lovense.url },
  patreon: {
    clientId: patreon.clientId,
    clientSecret: patreon.clientSecret,
    webhookSecret: patreon.webhookSecret,
    baseUrl: patreon.url,
    redirectUrl: 'http://localhost:3000/patreon/oauth',
  },
});
const tokens: Record<'user' | 'admin', string> = { user: '', admin: '' };

beforeAll(async () => {
  const admin = await createSignedInUser(app, { username: 'fuzzadmin', roles: ['Administrator'] });
  const user = await createSignedInUser(app, { username: 'fuzzuser' });
  tokens.admin = admin.token;
  tokens.user = user.token;
  // Rows for the small ids the generator favours.
  const db = app.ctx.db;
  for (let i = 0; i < 3; i++) {
    const file = await createFile(db, { authorId: admin.id, name: `Fuzz file ${i}` });
    await createPlaylist(db, { creatorId: i === 0 ? user.id : admin.id, fileIds: [file.id], isPublic: true });
    await createTrigger(db, { name: `fuzz trigger ${i}`, creatorId: null });
  }
  await app.inject({
    method: 'POST',
    url: '/api/messages/threads',
    headers: authHeader(tokens.user),
    payload: { name: null, userIds: String(admin.id) },
  });
});

/** Signs of a server's insides: stack frames, file paths, SQL errors. */
const LEAKS = [
  /\n\s+at .+:\d+:\d+/,
  /node_modules/,
  /\.ts:\d+/,
  /syntax error at or near/i,
  /relation "\w+"/i,
  /violates .* constraint/i,
  /duplicate key value/i,
  /column "\w+"/i,
  /invalid input syntax for/i,
];

interface Case {
  who: 'visitor' | 'user' | 'admin';
  params: unknown;
  query: unknown;
  body: unknown;
  rawBody: string | null;
}

function caseFor(route: RouteDefinition): fc.Arbitrary<Case> {
  // Half the cases valid throughout (they reach the handler's logic), half with bad parts.
  const schemaOr = (schema: unknown, mode: 'valid' | 'mixed') =>
    schema
      ? mode === 'valid'
        ? valueFor(schema as never, 'valid')
        : fc.oneof(
            { weight: 6, arbitrary: valueFor(schema as never, 'mixed') },
            { weight: 1, arbitrary: hostileValue },
          )
      : mode === 'valid'
        ? fc.constant(undefined)
        : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileValue });
  return fc.constantFrom<'valid' | 'mixed'>('valid', 'mixed').chain((mode) =>
    fc.record({
      who: fc.constantFrom('visitor', 'user', 'admin'),
      params: route.params ? valueFor(route.params, mode) : fc.constant(undefined),
      query: schemaOr(route.query, mode),
      body: schemaOr(route.body, mode),
      // Now and then a body that is not JSON at all, or JSON nested 20,000 deep.
      rawBody:
        mode === 'valid'
          ? fc.constant(null)
          : fc.oneof(
              { weight: 20, arbitrary: fc.constant(null) },
              fc.constantFrom(deepJson, '{"a":', 'null', '"text"', '\0', '{"__proto__":{"x":1}}'),
            ),
    }),
  );
}

function pathOf(route: RouteDefinition, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return `/api${route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(values[name] ?? 'x')))}`;
}

describe('fuzzing every route from its contract', () => {
  it('covers at least 10,000 requests', () => {
    expect(allRoutes.length * runsPerRoute).toBeGreaterThanOrEqual(TOTAL_CASES);
  });

  for (const route of allRoutes) {
    it(`${route.method} ${route.path}: no 5xx, no stack traces or SQL`, { timeout: 300_000 }, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(caseFor(route), async (c) => {
          const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';
          const headers: Record<string, string> = {};
          if (c.who !== 'visitor') Object.assign(headers, authHeader(tokens[c.who]));
          let payload: string | undefined;
          if (sendsBody && (c.rawBody !== null || c.body !== undefined)) {
            headers['content-type'] = 'application/json';
            payload = c.rawBody ?? JSON.stringify(c.body);
          }
          const res = await app.inject({
            method: route.method,
            url: pathOf(route, c.params),
            query: toQuery(c.query),
            headers,
            payload,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(500);
          for (const leak of LEAKS) expect(res.body).not.toMatch(leak);
        }),
        { numRuns: runsPerRoute, seed: Number(process.env.FUZZ_SEED ?? 20261123), endOnFailure: true },
      );
      if (process.env.FUZZ_STATS)
        console.log(route.method, route.path, JSON.stringify(Object.fromEntries(statuses)));
      // A sign-out among the cases ends a session: start fresh ones for the next route.
      tokens.admin = (
        await app.inject({ method: 'POST', url: '/api/token', payload: adminLogin })
      ).json().token;
      tokens.user = (
        await app.inject({ method: 'POST', url: '/api/token', payload: userLogin })
      ).json().token;
    });
  }

  it('stored nothing that breaks the rules', async () => {
    const db = app.ctx.db;
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      (await db.execute(query)) as unknown as { rows: T[] } | T[];
    const list = <T>(r: { rows: T[] } | T[]) => (Array.isArray(r) ? r : r.rows);
    const names = list(await rows<{ username: string }>(sql`select username from users`));
    for (const { username } of names) expect(isValidUsername(username), username).toBe(true);
    const playlists = list(await rows<{ name: string }>(sql`select name from playlists`));
    for (const { name } of playlists) {
      expect(name.length).toBeGreaterThan(0);
      expect(name.length).toBeLessThanOrEqual(TEXT_LIMITS.playlistName);
      expect(name).toBe(name.trim());
    }
    const biographies = list(await rows<{ biography: string }>(sql`select biography from users`));
    for (const { biography } of biographies)
      expect(biography.length).toBeLessThanOrEqual(TEXT_LIMITS.biography);
  });
});

const adminLogin = { user: 'fuzzadmin', password: 'correct horse battery', timezone: 'UTC' };
const userLogin = { user: 'fuzzuser', password: 'correct horse battery', timezone: 'UTC' };
