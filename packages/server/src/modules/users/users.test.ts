import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { triggers, users, userTriggers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTier, grantMembership } from '../../test/library-factories.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;

// User id 1 is the site owner; create it first so the users below are ordinary.
const owner = await createUser(db, { username: 'SiteOwner', roles: ['Administrator'] });
const [sleep, obey, drop] = await db
  .insert(triggers)
  .values(['Sleep', 'Obey', 'Drop'].map((name) => ({ name, creatorId: owner.id })))
  .returning({ id: triggers.id, name: triggers.name });

function getUser(query = '', token?: string) {
  return app.inject({
    method: 'GET',
    url: `/api/user${query}`,
    headers: token ? authHeader(token) : {},
  });
}
function putUser(payload: unknown, token?: string) {
  return app.inject({
    method: 'PUT',
    url: '/api/user',
    payload: payload as Record<string, unknown>,
    headers: token ? authHeader(token) : {},
  });
}

describe('GET /api/user', () => {
  it('answers user null (200) when signed out', async () => {
    const res = await getUser();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });

  it('answers the signed-in user with settings, roles and permissions', async () => {
    const mod = await createSignedInUser(app, {
      username: 'Moddy',
      email: 'moddy@example.test',
      roles: ['Moderator'],
    });
    const res = await getUser('', mod.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: mod.id,
        username: 'Moddy',
        email: 'moddy@example.test',
        emailVerified: false,
        timezone: 'UTC',
        imageURL: null,
        biography: '',
        points: 0,
        streak: 0,
        roles: [{ name: 'Moderator', showBadge: true, textColor: '#000000', background: '#FC688F' }],
        permissions: ['READ_ALL_FILES', 'WRITE_ALL_FILES', 'CREATE_TRIGGERS', 'REQUEST_TRIGGERS'],
        patreonName: null,
        triggers: [],
        createdAt: expect.any(String),
        censorTriggers: false,
        hideLockedFiles: false,
        insightsOptOut: false,
        patreonLinked: false,
        patreonTiers: [],
        memberships: [],
        lovenseToken: null,
        lovenseSettings: { vibrationOffset: 0, maxVibration: 50 },
      },
    });
  });

  it("lists the user's own memberships with their tier and state", async () => {
    const member = await createSignedInUser(app);
    const gold = await createTier(db, { creatorName: 'Lunadrift', title: 'Gold', rank: 2 });
    const silver = await createTier(db, { creatorName: 'Lunadrift', title: 'Silver', rank: 1 });
    await grantMembership(db, member.id, gold.id, true);
    await grantMembership(db, member.id, silver.id, false);
    const res = await getUser('', member.token);
    expect(res.json().user.memberships).toEqual([
      {
        creatorName: 'Lunadrift',
        tierName: 'Silver',
        tierId: silver.id,
        active: false,
        cancelled: true,
        lastVerified: null,
      },
      {
        creatorName: 'Lunadrift',
        tierName: 'Gold',
        tierId: gold.id,
        active: true,
        cancelled: false,
        lastVerified: null,
      },
    ]);
    const stranger = await createSignedInUser(app);
    expect((await getUser('', stranger.token)).json().user.memberships).toEqual([]);
  });

  it('never writes: a timezone sent with it is not stored', async () => {
    const user = await createSignedInUser(app);
    const res = await getUser('?timezone=Asia/Tokyo', user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.timezone).toBe('UTC');
    const [stored] = await db
      .select({ timezone: users.timezone, changedAt: users.timezoneChangedAt })
      .from(users)
      .where(eq(users.id, user.id));
    expect(stored).toEqual({ timezone: 'UTC', changedAt: null });
  });

  it('shows anyone only the public fields of a profile, found case-insensitively', async () => {
    const target = await createUser(db, { username: 'PublicPerson', roles: ['Contributor'] });
    await db
      .update(users)
      .set({ biography: 'Hello **there**', points: 77, streak: 3 })
      .where(eq(users.id, target.id));
    await db.insert(userTriggers).values({ userId: target.id, triggerId: sleep.id, trainingAmount: 1 });
    const viewer = await createSignedInUser(app);
    for (const token of [undefined, viewer.token]) {
      const res = await getUser('?username=publicperson', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        user: {
          id: target.id,
          username: 'PublicPerson',
          imageURL: null,
          biography: 'Hello **there**',
          points: 77,
          streak: 3,
          roles: [{ name: 'Contributor', showBadge: true, textColor: '#000000', background: '#FC688F' }],
          patreonName: null,
          triggers: [{ id: sleep.id, name: 'Sleep', trainingAmount: 1 }],
          createdAt: expect.any(String),
        },
      });
    }
  });

  it('shows your own profile by username with public fields only too', async () => {
    const user = await createSignedInUser(app);
    const res = await getUser(`?username=${user.username}`, user.token);
    expect(res.json().user.email).toBeUndefined();
    expect(res.json().user.lovenseSettings).toBeUndefined();
  });

  it('answers 404 for an unknown username', async () => {
    const res = await getUser('?username=nobody_at_all');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'User not found.' });
  });
});

describe('PUT /api/user', () => {
  it('answers 401 when signed out and changes nothing', async () => {
    const res = await putUser({ biography: 'sneaky' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'You need to be logged in to do that.' });
  });

  it('changes only the fields sent and answers the updated user', async () => {
    const user = await createSignedInUser(app);
    const res = await putUser(
      { biography: 'I like *spirals*.', censorTriggers: true, timezone: 'Europe/Paris' },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      id: user.id,
      biography: 'I like *spirals*.',
      censorTriggers: true,
      hideLockedFiles: false,
      timezone: 'Europe/Paris',
      lovenseSettings: { vibrationOffset: 0, maxVibration: 50 },
    });

    await putUser({ hideLockedFiles: true, lovenseSettings: { maxVibration: 80 } }, user.token);
    await putUser({ lovenseSettings: { vibrationOffset: -975 } }, user.token);
    await putUser({ insightsOptOut: true }, user.token);
    const [stored] = await db.select().from(users).where(eq(users.id, user.id));
    expect(stored).toMatchObject({
      biography: 'I like *spirals*.',
      censorTriggers: true,
      hideLockedFiles: true,
      insightsOptOut: true,
      timezone: 'Europe/Paris',
      maxVibration: 80,
      vibrationOffset: -975,
    });
    expect((await getUser('', user.token)).json().user.lovenseSettings).toEqual({
      vibrationOffset: -975,
      maxVibration: 80,
    });
  });

  it('changes the time zone at most once a day: a second change within a day is 409 and saves nothing', async () => {
    const user = await createSignedInUser(app);
    clock.set('2026-06-01T12:00:00Z');
    expect((await putUser({ timezone: 'Europe/Paris' }, user.token)).statusCode).toBe(200);
    clock.advance(23 * 3600_000);
    const again = await putUser({ timezone: 'Asia/Tokyo', biography: 'moved' }, user.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'timezone: your time zone can change once a day.' });
    // Sending the stored zone again is no change.
    expect((await putUser({ timezone: 'Europe/Paris', biography: 'same' }, user.token)).statusCode).toBe(200);
    const stored = async () =>
      (
        await db
          .select({
            timezone: users.timezone,
            biography: users.biography,
            changedAt: users.timezoneChangedAt,
          })
          .from(users)
          .where(eq(users.id, user.id))
      )[0];
    expect(await stored()).toEqual({
      timezone: 'Europe/Paris',
      biography: 'same',
      changedAt: new Date('2026-06-01T12:00:00Z'),
    });
    clock.advance(3600_000);
    expect((await putUser({ timezone: 'Asia/Tokyo' }, user.token)).json().user.timezone).toBe('Asia/Tokyo');
    expect(await stored()).toMatchObject({
      timezone: 'Asia/Tokyo',
      changedAt: new Date('2026-06-02T12:00:00Z'),
    });
  });

  it('accepts an empty body and changes nothing', async () => {
    const user = await createSignedInUser(app);
    const res = await putUser({}, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.biography).toBe('');
  });

  it('accepts the slider ends', async () => {
    const user = await createSignedInUser(app);
    for (const lovenseSettings of [
      { vibrationOffset: -1000, maxVibration: 1 },
      { vibrationOffset: 1000, maxVibration: 100 },
    ]) {
      const res = await putUser({ lovenseSettings }, user.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.lovenseSettings).toEqual(lovenseSettings);
    }
  });

  it('rejects bad input naming the field and keeps what was stored', async () => {
    const user = await createSignedInUser(app);
    await putUser(
      { biography: 'kept', lovenseSettings: { vibrationOffset: 25, maxVibration: 60 } },
      user.token,
    );
    const cases: [unknown, string][] = [
      [{ lovenseSettings: { vibrationOffset: 1025 } }, 'lovenseSettings.vibrationOffset'],
      [{ lovenseSettings: { vibrationOffset: -1025 } }, 'lovenseSettings.vibrationOffset'],
      [{ lovenseSettings: { vibrationOffset: 30 } }, 'lovenseSettings.vibrationOffset'],
      [{ lovenseSettings: { maxVibration: 0 } }, 'lovenseSettings.maxVibration'],
      [{ lovenseSettings: { maxVibration: 101 } }, 'lovenseSettings.maxVibration'],
      [{ lovenseSettings: { maxVibration: 50.5 } }, 'lovenseSettings.maxVibration'],
      [{ biography: 'x'.repeat(5001) }, 'biography'],
      [{ biography: 42 }, 'biography'],
      [{ censorTriggers: 'yes' }, 'censorTriggers'],
      [{ hideLockedFiles: 1 }, 'hideLockedFiles'],
      [{ timezone: 'Moon/Crater' }, 'timezone'],
      [{ triggers: [{ triggerId: sleep.id, trainingAmount: 2 }] }, 'triggers.0.trainingAmount'],
      [{ triggers: [{ triggerId: 0, trainingAmount: 0 }] }, 'triggers.0.triggerId'],
      [{ triggers: 'Sleep' }, 'triggers'],
    ];
    for (const [payload, field] of cases) {
      const res = await putUser(payload, user.token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field, JSON.stringify(payload)).toBe(field);
    }
    expect((await putUser({ biography: 'x'.repeat(5001) }, user.token)).json()).toEqual({
      error: 'biography: Biography must be at most 5000 characters.',
      field: 'biography',
    });
    const [stored] = await db.select().from(users).where(eq(users.id, user.id));
    expect(stored).toMatchObject({ biography: 'kept', vibrationOffset: 25, maxVibration: 60 });
  });

  it('rejects fields it does not know, including ones that are not yours to set', async () => {
    const user = await createSignedInUser(app);
    for (const payload of [
      { points: 9999 },
      { username: 'renamed' },
      { email: 'x@example.test' },
      { id: 1 },
    ]) {
      const res = await putUser(payload, user.token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(/^body: Unrecognized key/);
    }
    expect((await putUser({ points: 9999 }, user.token)).json()).toEqual({
      error: 'body: Unrecognized key: "points"',
      field: 'body',
    });
    const [stored] = await db.select().from(users).where(eq(users.id, user.id));
    expect(stored).toMatchObject({ points: 0, username: user.username, email: user.email });
  });

  it('replaces the trigger selection as a whole (0 trained, 1 in training)', async () => {
    const user = await createSignedInUser(app);
    const first = await putUser(
      {
        triggers: [
          { triggerId: sleep.id, trainingAmount: 0 },
          { triggerId: obey.id, trainingAmount: 1 },
        ],
      },
      user.token,
    );
    expect(first.statusCode).toBe(200);
    expect(first.json().user.triggers).toEqual([
      { id: obey.id, name: 'Obey', trainingAmount: 1 },
      { id: sleep.id, name: 'Sleep', trainingAmount: 0 },
    ]);

    // Moving Sleep to "in training" and adding Drop; Obey is dropped because it is not sent.
    await putUser(
      {
        triggers: [
          { triggerId: sleep.id, trainingAmount: 1 },
          { triggerId: drop.id, trainingAmount: 0 },
        ],
      },
      user.token,
    );
    const stored = await db.select().from(userTriggers).where(eq(userTriggers.userId, user.id));
    expect(stored.sort((a, b) => a.triggerId - b.triggerId)).toEqual(
      [
        { userId: user.id, triggerId: sleep.id, trainingAmount: 1 },
        { userId: user.id, triggerId: drop.id, trainingAmount: 0 },
      ].sort((a, b) => a.triggerId - b.triggerId),
    );

    const cleared = await putUser({ triggers: [] }, user.token);
    expect(cleared.json().user.triggers).toEqual([]);
  });

  it('leaves triggers alone when the field is not sent', async () => {
    const user = await createSignedInUser(app);
    await putUser({ triggers: [{ triggerId: drop.id, trainingAmount: 1 }] }, user.token);
    const res = await putUser({ biography: 'still training' }, user.token);
    expect(res.json().user.triggers).toEqual([{ id: drop.id, name: 'Drop', trainingAmount: 1 }]);
  });

  it('rejects unknown and repeated triggers without changing the selection', async () => {
    const user = await createSignedInUser(app);
    await putUser({ triggers: [{ triggerId: obey.id, trainingAmount: 0 }] }, user.token);
    const unknown = await putUser({ triggers: [{ triggerId: 999_999, trainingAmount: 0 }] }, user.token);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'triggers: there is no trigger with id 999999.' });
    const repeated = await putUser(
      {
        triggers: [
          { triggerId: sleep.id, trainingAmount: 0 },
          { triggerId: sleep.id, trainingAmount: 1 },
        ],
      },
      user.token,
    );
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toEqual({ error: 'triggers: each trigger may appear only once.' });
    expect((await getUser('', user.token)).json().user.triggers).toEqual([
      { id: obey.id, name: 'Obey', trainingAmount: 0 },
    ]);
  });

  it("changes only the caller's own settings", async () => {
    const alice = await createSignedInUser(app);
    const bob = await createSignedInUser(app);
    await putUser({ biography: 'Bob stays Bob', censorTriggers: true }, bob.token);
    const res = await putUser({ biography: 'Alice was here', censorTriggers: false }, alice.token);
    expect(res.json().user.id).toBe(alice.id);
    const [storedBob] = await db.select().from(users).where(eq(users.id, bob.id));
    expect(storedBob).toMatchObject({ biography: 'Bob stays Bob', censorTriggers: true });
    expect((await getUser(`?username=${bob.username}`)).json().user.biography).toBe('Bob stays Bob');
  });
});
