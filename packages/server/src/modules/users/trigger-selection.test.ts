import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userTriggers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTrigger } from '../../test/library-factories.ts';

const { app } = await createTestApp();
const db = app.ctx.db;
const owner = await createUser(db, { username: 'SiteOwner', roles: ['Administrator'] });
const sleep = await createTrigger(db, { name: 'Sleep', creatorId: owner.id });
const obey = await createTrigger(db, { name: 'Obey', creatorId: owner.id });

function putUser(payload: Record<string, unknown>, token?: string) {
  return app.inject({ method: 'PUT', url: '/api/user', payload, headers: token ? authHeader(token) : {} });
}
async function storedSelection(userId: number) {
  return db
    .select({ triggerId: userTriggers.triggerId, trainingAmount: userTriggers.trainingAmount })
    .from(userTriggers)
    .where(eq(userTriggers.userId, userId))
    .orderBy(asc(userTriggers.triggerId));
}

describe('PUT /api/user trigger selections', () => {
  it("takes the spec's triggerid / trainingamount and the web's triggerId / trainingAmount alike", async () => {
    const spec = await createSignedInUser(app);
    const web = await createSignedInUser(app);
    const specRes = await putUser(
      {
        triggers: [
          { triggerid: sleep.id, trainingamount: 0 },
          { triggerid: obey.id, trainingamount: 1 },
        ],
      },
      spec.token,
    );
    const webRes = await putUser(
      {
        triggers: [
          { triggerId: sleep.id, trainingAmount: 0 },
          { triggerId: obey.id, trainingAmount: 1 },
        ],
      },
      web.token,
    );
    expect(specRes.statusCode).toBe(200);
    expect(webRes.statusCode).toBe(200);
    expect(specRes.json().user.triggers).toEqual([
      { id: obey.id, name: 'Obey', trainingAmount: 1 },
      { id: sleep.id, name: 'Sleep', trainingAmount: 0 },
    ]);
    expect(webRes.json().user.triggers).toEqual(specRes.json().user.triggers);
    const expected = [
      { triggerId: sleep.id, trainingAmount: 0 },
      { triggerId: obey.id, trainingAmount: 1 },
    ].sort((a, b) => a.triggerId - b.triggerId);
    expect(await storedSelection(spec.id)).toEqual(expected);
    expect(await storedSelection(web.id)).toEqual(expected);
  });

  it('answers 400 naming the field when a selection lacks its trigger or amount, storing nothing', async () => {
    const user = await createSignedInUser(app);
    await putUser({ triggers: [{ triggerId: sleep.id, trainingAmount: 1 }] }, user.token);
    const cases: [Record<string, unknown>, string][] = [
      [{ trainingamount: 0 }, 'triggers.0.triggerId'],
      [{ triggerid: obey.id }, 'triggers.0.trainingAmount'],
      [{ triggerid: obey.id, trainingamount: 2 }, 'triggers.0.trainingamount'],
      [{ triggerid: 2_147_483_648, trainingamount: 0 }, 'triggers.0.triggerid'],
    ];
    for (const [selection, field] of cases) {
      const res = await putUser({ triggers: [selection] }, user.token);
      expect(res.statusCode, JSON.stringify(selection)).toBe(400);
      expect(res.json().field, JSON.stringify(selection)).toBe(field);
    }
    expect((await putUser({ triggers: [{ triggerid: obey.id }] }, user.token)).json()).toEqual({
      error: 'triggers.0.trainingAmount: is required',
      field: 'triggers.0.trainingAmount',
    });
    expect(await storedSelection(user.id)).toEqual([{ triggerId: sleep.id, trainingAmount: 1 }]);
  });

  it('answers 401 without a session, storing nothing', async () => {
    const before = await db.select().from(userTriggers);
    const res = await putUser({ triggers: [{ triggerid: obey.id, trainingamount: 0 }] });
    expect(res.statusCode).toBe(401);
    expect(await db.select().from(userTriggers)).toEqual(before);
  });
});
