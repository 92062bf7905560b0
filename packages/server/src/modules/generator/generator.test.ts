import { beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createTier, createTrigger, grantMembership } from '../../test/library-factories.ts';
import { createGeneratorService } from './generator.service.ts';

const { app } = await createTestApp();
const db = app.ctx.db;
const MIN = 60_000;

type Signed = TestUser & { token: string };
let owner: Signed;
let member: Signed;
const f: Record<string, Awaited<ReturnType<typeof createFile>>> = {};
let hidden: Awaited<ReturnType<typeof createTrigger>>;
let wanted: Awaited<ReturnType<typeof createTrigger>>;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  const creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
  member = await createSignedInUser(app, { username: 'member' });
  await createTier(db, { id: 't1', rank: 1 });
  await grantMembership(db, member.id, 't1');
  hidden = await createTrigger(db, { name: 'Hidden', creatorId: owner.id });
  wanted = await createTrigger(db, { name: 'Wanted', creatorId: owner.id });
  const own = { authorId: owner.id };
  f.induction = await createFile(db, { ...own, name: 'Induction', fileType: 1, duration: 10 * MIN });
  f.deepener = await createFile(db, { ...own, name: 'Deepener', fileType: 2, duration: 10 * MIN });
  f.trigger = await createFile(db, {
    ...own,
    name: 'Trigger',
    fileType: 3,
    duration: 5 * MIN,
    triggers: [{ id: wanted.id }],
  });
  f.hiddenSuggestion = await createFile(db, {
    ...own,
    name: 'Hidden suggestion',
    fileType: 4,
    duration: 5 * MIN,
    triggers: [{ id: hidden.id }],
  });
  f.locked = await createFile(db, {
    ...own,
    name: 'Locked',
    fileType: 4,
    duration: 5 * MIN,
    tierIds: ['t1'],
  });
  f.loop = await createFile(db, { ...own, name: 'Loop', fileType: 5, duration: 2 * MIN });
  f.awakener = await createFile(db, { ...own, name: 'Awakener', fileType: 6, duration: 5 * MIN });
  f.community = await createFile(db, {
    authorId: creator.id,
    name: 'Community',
    fileType: 2,
    duration: 5 * MIN,
  });
  f.private = await createFile(db, {
    ...own,
    name: 'Private',
    fileType: 2,
    duration: 5 * MIN,
    isPublic: false,
  });
});

const generate = (query: string, token?: string) =>
  app.inject({
    method: 'GET',
    url: `/api/playlist/generate?${query}`,
    headers: token ? authHeader(token) : {},
  });
const names = async (query: string, token?: string) => {
  const res = await generate(query, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files.map((x: { name: string }) => x.name) as string[];
};

describe('GET /api/playlist/generate', () => {
  it('builds induction, body and awakener within the length, without locked or hidden files', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await generate(`hideTriggers=${hidden.id}&maxDuration=${60 * MIN}`);
      const body = res.json();
      const list = body.files.map((x: { name: string }) => x.name);
      expect(list[0]).toBe('Induction');
      expect(list.at(-1)).toBe('Awakener');
      expect(new Set(list.slice(1, -1))).toEqual(new Set(['Deepener', 'Trigger']));
      expect(body.totalDuration).toBe(30 * MIN);
      expect(
        body.files.every((x: { isLocked: boolean; audioURL: string }) => !x.isLocked && x.audioURL),
      ).toBe(true);
    }
  });

  it('adds community files, loops and unlocked tier files only when they apply', async () => {
    const all = await names(
      `communityFiles=true&includeLoops=true&fileTypes=2,3,4,5&includeInduction=false&includeAwakener=false&maxDuration=${120 * MIN}`,
      member.token,
    );
    expect(new Set(all)).toEqual(
      new Set(['Deepener', 'Trigger', 'Hidden suggestion', 'Locked', 'Loop', 'Community']),
    );
  });

  it('keeps to the chosen types and the maximum length', async () => {
    expect(await names(`fileTypes=3&maxDuration=${20 * MIN}`)).toEqual(['Induction', 'Trigger', 'Awakener']);
    expect(await names(`fileTypes=3&maxDuration=${15 * MIN}`)).toEqual(['Induction', 'Awakener']);
  });

  it('answers 404 with the spec text when nothing fits', async () => {
    const res = await generate('maxDuration=0');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No playlist could be generated with the current settings.' });
  });

  it('rejects a length over three hours naming the field', async () => {
    const res = await generate(`maxDuration=${181 * MIN}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('maxDuration');
  });

  it('weights toward wanted triggers through the injected random source', async () => {
    // Body candidates Deepener (weight 1) and Trigger (weight 4): a first draw of 0.5 takes Trigger.
    const service = createGeneratorService({ ...app.services, random: () => 0.5 });
    const result = await service.generate(null, {
      fileTypes: [2, 3],
      includeTriggers: [wanted.id],
      communityFiles: false,
      includeInduction: false,
      includeAwakener: false,
      includeLoops: false,
      maxDuration: 10 * MIN,
    });
    expect(result.files.map((x) => x.name)).toEqual(['Trigger']);
  });

  it("scales the preference by the wanted trigger's weight from the weighting table", async () => {
    const faint = await createTrigger(db, { name: 'Faint', creatorId: null, weight: 0.2 });
    await createFile(db, {
      authorId: owner.id,
      name: 'Faint file',
      fileType: 3,
      duration: 5 * MIN,
      triggers: [{ id: faint.id }],
    });
    // Trigger weighs 1, Faint file 1 + 3 × 0.2 = 1.6: draws below 1 / 2.6 ≈ 0.385 take Trigger.
    const run = (draw: number) =>
      createGeneratorService({ ...app.services, random: () => draw }).generate(null, {
        fileTypes: [3],
        includeTriggers: [faint.id],
        communityFiles: false,
        includeInduction: false,
        includeAwakener: false,
        includeLoops: false,
        maxDuration: 5 * MIN,
      });
    expect((await run(0.3)).files.map((x) => x.name)).toEqual(['Trigger']);
    expect((await run(0.4)).files.map((x) => x.name)).toEqual(['Faint file']);
  });
});
