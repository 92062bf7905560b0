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
let moderator: Signed;
let creator: Signed;
let other: Signed;
let listener: Signed;
let sleep: Awaited<ReturnType<typeof createTrigger>>;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  moderator = await createSignedInUser(app, { username: 'moderator', roles: ['Moderator'] });
  creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
  other = await createSignedInUser(app, { username: 'other', roles: ['Contributor'] });
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
        category: null,
        weight: 1,
        pending: false,
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
  it('publishes at once for a holder of CREATE_TRIGGERS and cuts the description to 250', async () => {
    const res = await post({ name: '  Velvet Touch ', description: 'x'.repeat(300) }, moderator.token);
    expect(res.statusCode).toBe(201);
    const { trigger } = res.json();
    expect(trigger).toMatchObject({
      name: 'Velvet Touch',
      description: 'x'.repeat(250),
      creator: { id: moderator.id, username: 'moderator' },
      isCore: false,
      pending: false,
    });
    const [stored] = await db.select().from(triggers).where(sql`${triggers.id} = ${trigger.id}`);
    expect(stored).toMatchObject({
      name: 'Velvet Touch',
      description: 'x'.repeat(250),
      creatorId: moderator.id,
      pending: false,
    });
    expect((await get('?name=velvet_touch')).json().trigger.id).toBe(trigger.id);
  });

  it('stores a pending request for a holder of only the request permission, unlisted and unfindable', async () => {
    const res = await post({ name: 'Soft Chime', description: 'A bell that calms.' }, creator.token);
    expect(res.statusCode).toBe(201);
    const { trigger } = res.json();
    expect(trigger).toMatchObject({ name: 'Soft Chime', creator: { id: creator.id }, pending: true });
    const [stored] = await db.select().from(triggers).where(sql`${triggers.id} = ${trigger.id}`);
    expect(stored).toMatchObject({ creatorId: creator.id, pending: true });
    const names = (await get()).json().triggers.map((t: { name: string }) => t.name);
    expect(names).not.toContain('Soft Chime');
    expect((await get('?name=soft_chime')).statusCode).toBe(404);
    expect((await get(`?uuid=${trigger.uuid}`)).statusCode).toBe(404);
  });

  it('keeps a pending request unusable: it cannot be picked on a profile', async () => {
    const req = await createTrigger(db, { name: 'Not Yet', creatorId: creator.id, pending: true });
    const res = await app.inject({
      method: 'PUT',
      url: '/api/user',
      payload: { triggers: [{ triggerId: req.id, trainingAmount: 0 }] },
      headers: authHeader(creator.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`triggers: there is no trigger with id ${req.id}.`);
  });

  it('makes a core trigger when the site owner adds it', async () => {
    const res = await post({ name: 'Good Feeling' }, owner.token);
    expect(res.statusCode).toBe(201);
    expect(res.json().trigger).toMatchObject({ isCore: true, description: '', pending: false });
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

const requests = (token?: string) =>
  app.inject({ method: 'GET', url: '/api/triggers/requests', headers: token ? authHeader(token) : {} });
const put = (payload: unknown, token?: string) =>
  app.inject({
    method: 'PUT',
    url: '/api/triggers',
    payload: payload as object,
    headers: token ? authHeader(token) : {},
  });
const del = (id: number | string, token?: string) =>
  app.inject({ method: 'DELETE', url: `/api/trigger?id=${id}`, headers: token ? authHeader(token) : {} });
const stored = async (id: number) => (await db.select().from(triggers).where(sql`${triggers.id} = ${id}`))[0];

describe('GET /api/triggers/requests', () => {
  it('shows staff every pending request and a requester only their own', async () => {
    const mine = await createTrigger(db, { name: 'Req Mine', creatorId: creator.id, pending: true });
    const theirs = await createTrigger(db, { name: 'Req Theirs', creatorId: other.id, pending: true });
    const staffView = (await requests(moderator.token)).json().triggers.map((t: { id: number }) => t.id);
    expect(staffView).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const res = await requests(creator.token);
    expect(res.statusCode).toBe(200);
    const own = res.json().triggers;
    expect(own.map((t: { id: number }) => t.id)).toContain(mine.id);
    expect(own.map((t: { id: number }) => t.id)).not.toContain(theirs.id);
    expect(
      own.every(
        (t: { pending: boolean; creator: { id: number } }) => t.pending && t.creator.id === creator.id,
      ),
    ).toBe(true);
  });

  it('needs a session (401) and an add-trigger permission (403)', async () => {
    expect((await requests()).statusCode).toBe(401);
    expect((await requests(listener.token)).statusCode).toBe(403);
  });
});

describe('PUT /api/triggers', () => {
  it('lets staff approve a request, which then is listed and findable', async () => {
    const req = await createTrigger(db, { name: 'Approve Me', creatorId: creator.id, pending: true });
    const res = await put({ id: req.id, approve: true }, moderator.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().trigger).toMatchObject({
      id: req.id,
      name: 'Approve Me',
      pending: false,
      creator: { id: creator.id },
    });
    expect(await stored(req.id)).toMatchObject({ pending: false });
    expect((await get('?name=approve_me')).json().trigger.id).toBe(req.id);
    expect((await requests(moderator.token)).json().triggers.map((t: { id: number }) => t.id)).not.toContain(
      req.id,
    );
  });

  it('lets staff rename and redescribe a trigger (description cut to 250) without publishing a request', async () => {
    const req = await createTrigger(db, { name: 'Edit Me', creatorId: creator.id, pending: true });
    const res = await put({ id: req.id, name: ' Edited ', description: 'y'.repeat(260) }, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().trigger).toMatchObject({ name: 'Edited', description: 'y'.repeat(250), pending: true });
    expect(await stored(req.id)).toMatchObject({
      name: 'Edited',
      description: 'y'.repeat(250),
      pending: true,
    });
  });

  it('answers 409 for a name another trigger has and 404 for an unknown id', async () => {
    const res = await put({ id: sleep.id, name: 'focus' }, owner.token);
    expect(res.statusCode).toBe(409);
    expect(await stored(sleep.id)).toMatchObject({ name: 'Sleep Now' });
    const missing = await put({ id: 999_999, approve: true }, owner.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Trigger not found.' });
  });

  it('refuses non-staff (403), even the requester, and anonymous callers (401)', async () => {
    const req = await createTrigger(db, { name: 'Not Yours', creatorId: creator.id, pending: true });
    for (const token of [creator.token, listener.token]) {
      expect((await put({ id: req.id, approve: true }, token)).statusCode).toBe(403);
    }
    expect((await put({ id: req.id, approve: true })).statusCode).toBe(401);
    expect(await stored(req.id)).toMatchObject({ pending: true, name: 'Not Yours' });
  });

  it('rejects bad input naming the field', async () => {
    const empty = await put({ id: sleep.id, name: '  ' }, owner.token);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'name: Name is required.', field: 'name' });
    const badId = await put({ id: 'x' }, owner.token);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().field).toBe('id');
  });
});

describe('DELETE /api/trigger', () => {
  it('lets staff delete a trigger or reject a request', async () => {
    const req = await createTrigger(db, { name: 'Reject Me', creatorId: creator.id, pending: true });
    const res = await del(req.id, moderator.token);
    expect(res.statusCode).toBe(204);
    expect(await stored(req.id)).toBeUndefined();
    expect((await del(req.id, moderator.token)).statusCode).toBe(404);
  });

  it('refuses non-staff (403) and anonymous callers (401), and rejects a bad id (400)', async () => {
    const t = await createTrigger(db, { name: 'Keep Me', creatorId: creator.id });
    expect((await del(t.id, creator.token)).statusCode).toBe(403);
    expect((await del(t.id)).statusCode).toBe(401);
    const bad = await del('abc', owner.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('id');
    expect(await stored(t.id)).toBeDefined();
  });
});
