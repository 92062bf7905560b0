import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { triggers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTrigger } from '../../test/library-factories.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let owner: Signed;
let creator: Signed;
let listener: Signed;
let sleep: Awaited<ReturnType<typeof createTrigger>>;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
  listener = await createSignedInUser(app, { username: 'listener' });
  sleep = await createTrigger(db, { name: 'Sleep Now', description: 'Deep sleep.', creatorId: owner.id });
  await createTrigger(db, { name: 'blank', creatorId: creator.id });
  await createTrigger(db, { name: 'Focus', creatorId: owner.id });
});

const get = (query = '') => app.inject({ method: 'GET', url: `/api/triggers${query}` });
const post = (payload: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/triggers',
    payload: payload as object,
    headers: token ? authHeader(token) : {},
  });

describe('GET /api/triggers', () => {
  it('lists every trigger sorted by name, ignoring case', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json().triggers.map((t: { name: string }) => t.name)).toEqual(['blank', 'Focus', 'Sleep Now']);
  });

  it('answers one trigger by uuid with its creator and core flag', async () => {
    expect((await get(`?uuid=${sleep.uuid}`)).json()).toEqual({
      trigger: {
        id: sleep.id,
        uuid: sleep.uuid,
        name: 'Sleep Now',
        description: 'Deep sleep.',
        creator: { id: owner.id, username: 'owner' },
        isCore: true,
      },
    });
    expect((await get('?name=blank')).json().trigger).toMatchObject({
      isCore: false,
      creator: { username: 'creator' },
    });
  });

  it('finds a trigger by name with the slug rule (spaces as underscores, any case)', async () => {
    for (const name of ['sleep_now', 'Sleep_Now', 'Sleep%20Now', 'SLEEP_NOW']) {
      expect((await get(`?name=${name}`)).json().trigger.id, name).toBe(sleep.id);
    }
  });

  it('answers 404 for an unknown name or uuid', async () => {
    for (const query of ['?name=nothing_here', '?uuid=00000000-0000-4000-8000-000000000000']) {
      const res = await get(query);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Trigger not found.' });
    }
  });

  it('rejects a malformed uuid naming the field', async () => {
    const res = await get('?uuid=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('uuid');
  });
});

describe('POST /api/triggers', () => {
  it('creates a trigger for a holder of an add-trigger permission and cuts the description to 250', async () => {
    const res = await post({ name: '  Velvet Touch ', description: 'x'.repeat(300) }, creator.token);
    expect(res.statusCode).toBe(201);
    const { trigger } = res.json();
    expect(trigger).toMatchObject({
      name: 'Velvet Touch',
      description: 'x'.repeat(250),
      creator: { id: creator.id, username: 'creator' },
      isCore: false,
    });
    const [stored] = await db.select().from(triggers).where(sql`${triggers.id} = ${trigger.id}`);
    expect(stored).toMatchObject({
      name: 'Velvet Touch',
      description: 'x'.repeat(250),
      creatorId: creator.id,
    });
  });

  it('makes a core trigger when the site owner adds it', async () => {
    const res = await post({ name: 'Good Feeling' }, owner.token);
    expect(res.statusCode).toBe(201);
    expect(res.json().trigger).toMatchObject({ isCore: true, description: '' });
  });

  it('answers 409 for a name already taken in any case', async () => {
    const before = await db.select().from(triggers);
    const res = await post({ name: 'SLEEP NOW', description: 'again' }, owner.token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'A trigger with that name already exists.' });
    expect(await db.select().from(triggers)).toHaveLength(before.length);
  });

  it('needs a session (401) and the permission (403)', async () => {
    expect((await post({ name: 'Anon' })).statusCode).toBe(401);
    const res = await post({ name: 'Nope' }, listener.token);
    expect(res.statusCode).toBe(403);
    expect((await get('?name=nope')).statusCode).toBe(404);
  });

  it('rejects an empty name naming the field', async () => {
    const res = await post({ name: '   ' }, owner.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'name: Name is required.', field: 'name' });
  });
});
