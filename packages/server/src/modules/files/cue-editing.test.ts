import { MAX_CUES } from '@mesmer/shared/domain/attachments';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';

/** The cue editor's calls: GET /api/files/cues and PUT /api/files/cues (saving with a revision check). */

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);

type Signed = TestUser & { token: string };
let creator: Signed;
let stranger: Signed;
let moderator: Signed;

beforeAll(async () => {
  creator = await createSignedInUser(app, { username: 'cue_creator', roles: ['Verified Creator'] });
  stranger = await createSignedInUser(app, { username: 'cue_stranger', roles: ['Verified Creator'] });
  moderator = await createSignedInUser(app, { username: 'cue_moderator', roles: ['Moderator'] });
});

const CONFLICT =
  'The cues were changed since you opened them (another editor saved, or a cue file was uploaded or removed). Nothing was saved.';

type Cue = { time: number; stopTime: number; strength: number };
const mine: Cue[] = [
  { time: 2000, stopTime: 2500, strength: 1 },
  { time: 0, stopTime: 1000, strength: 0.25 },
];
const theirs: Cue[] = [{ time: 500, stopTime: 900, strength: 0.75 }];

const fileRow = async (id: number) => (await db.select().from(files).where(eq(files.id, id)))[0];
const stored = async (key: string) => {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.createReadStream(key)) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

const getCues = (fileId: number | string, token?: string) =>
  app.inject({
    method: 'GET',
    url: `/api/files/cues?fileId=${fileId}`,
    headers: token ? authHeader(token) : {},
  });

const save = (body: unknown, token?: string) =>
  app.inject({
    method: 'PUT',
    url: '/api/files/cues',
    payload: body as object,
    headers: token ? authHeader(token) : {},
  });

/** POST /api/files/attachment: a cue file (or Funscript) uploaded the usual way. */
async function upload(token: string, fileId: number, kind: 'haptics' | 'funscript', content: unknown) {
  const form = new FormData();
  form.append('fileId', String(fileId));
  form.append('kind', kind);
  form.append('file', new Blob([JSON.stringify(content)]), 'cues.json');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: '/api/files/attachment',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', ...authHeader(token) },
  });
}

describe('GET /api/files/cues', () => {
  it('answers no cues and revision 0 for a file without haptics', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await getCues(file.id, creator.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cues: [], revision: 0 });
  });

  it("answers an uploaded cue file's cues in start order with its revision", async () => {
    const file = await createFile(db, { authorId: creator.id });
    expect((await upload(creator.token, file.id, 'haptics', mine)).statusCode).toBe(200);
    const res = await getCues(file.id, creator.token);
    expect(res.json()).toEqual({ cues: [mine[1], mine[0]], revision: 1 });
    // Staff who may edit any file read them too.
    expect((await getCues(file.id, moderator.token)).json()).toEqual({
      cues: [mine[1], mine[0]],
      revision: 1,
    });
  });

  it('answers 400 naming fileId, 401, 403 to others and 404 for a file they cannot see', async () => {
    const open = await createFile(db, { authorId: creator.id });
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    expect((await getCues('abc', creator.token)).json()).toMatchObject({ field: 'fileId' });
    expect((await getCues(open.id)).statusCode).toBe(401);
    expect((await getCues(open.id, stranger.token)).statusCode).toBe(403);
    expect((await getCues(hidden.id, stranger.token)).statusCode).toBe(404);
    expect((await getCues(999_999, creator.token)).statusCode).toBe(404);
  });
});

describe('PUT /api/files/cues', () => {
  it('saves the cues as the haptics under a new key, raises the revision and serves them', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await save({ fileId: file.id, revision: 0, cues: mine }, creator.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      revision: 1,
      file: { id: file.id, hasHaptics: true, hapticsURL: expect.any(String) },
    });
    const row = await fileRow(file.id);
    expect(row.hapticsRevision).toBe(1);
    expect(row.hapticsKey).toMatch(new RegExp(`^haptics/${file.uuid}-[0-9a-f]{12}\\.json$`));
    // Stored as an uploaded cue file is: only the three fields, in start order.
    expect(await stored(row.hapticsKey ?? '')).toEqual([mine[1], mine[0]]);
    const served = await app.inject({ method: 'GET', url: res.json().file.hapticsURL });
    expect(served.json()).toEqual([mine[1], mine[0]]);
    expect((await getCues(file.id, creator.token)).json()).toEqual({ cues: [mine[1], mine[0]], revision: 1 });

    // The next save from that revision replaces them; the old bytes go, the link changes.
    const again = await save({ fileId: file.id, revision: 1, cues: theirs }, creator.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().revision).toBe(2);
    expect(again.json().file.hapticsURL).not.toBe(res.json().file.hapticsURL);
    const after = await fileRow(file.id);
    expect(after.hapticsKey).not.toBe(row.hapticsKey);
    expect(await storage.stat(row.hapticsKey ?? '')).toBeNull();
    expect(await stored(after.hapticsKey ?? '')).toEqual(theirs);
  });

  it('keeps only time, stopTime and strength of each cue', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await save(
      {
        fileId: file.id,
        revision: 0,
        cues: [{ time: 10, stopTime: 20, strength: 0.5, id: 7, selected: true }],
      },
      creator.token,
    );
    expect(res.statusCode).toBe(200);
    expect(await stored((await fileRow(file.id)).hapticsKey ?? '')).toEqual([
      { time: 10, stopTime: 20, strength: 0.5 },
    ]);
  });

  it('lets WRITE_ALL_FILES holders save on any file', async () => {
    const file = await createFile(db, { authorId: creator.id, isPublic: false });
    const res = await save({ fileId: file.id, revision: 0, cues: theirs }, moderator.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().revision).toBe(1);
  });

  it('answers 400 naming the field of the first problem, and stores nothing', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const ok = { time: 0, stopTime: 100, strength: 0.5 };
    const cases: [unknown, string, string][] = [
      [
        { fileId: file.id, revision: 0, cues: [ok, { ...ok, strength: 1.5 }] },
        'cues.1.strength',
        'must be a number from 0 to 1',
      ],
      [
        { fileId: file.id, revision: 0, cues: [{ ...ok, strength: -0.1 }] },
        'cues.0.strength',
        'must be a number from 0 to 1',
      ],
      [
        { fileId: file.id, revision: 0, cues: [{ ...ok, stopTime: 0 }] },
        'cues.0.stopTime',
        'must be a number after time',
      ],
      [
        { fileId: file.id, revision: 0, cues: [{ ...ok, time: -5 }] },
        'cues.0.time',
        'must be a number of milliseconds ≥ 0',
      ],
      [
        { fileId: file.id, revision: 0, cues: [{ ...ok, time: '0' }] },
        'cues.0.time',
        'must be a number of milliseconds ≥ 0',
      ],
      [
        { fileId: file.id, revision: 0, cues: [{ time: 0, strength: 1 }] },
        'cues.0.stopTime',
        'must be a number after time',
      ],
      [{ fileId: file.id, revision: 0, cues: [ok, 'cue'] }, 'cues.1', ''],
      [{ fileId: file.id, revision: 0, cues: [] }, 'cues', 'The cue file has no cues.'],
      [{ fileId: file.id, revision: 0, cues: 'none' }, 'cues', ''],
      [{ fileId: file.id, revision: -1, cues: [ok] }, 'revision', ''],
      [{ fileId: file.id, revision: 1.5, cues: [ok] }, 'revision', ''],
      [{ fileId: file.id, cues: [ok] }, 'revision', ''],
      [{ revision: 0, cues: [ok] }, 'fileId', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await save(body, creator.token);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toMatchObject({ field });
      expect(res.json().error, field).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: ${message}`));
    }
    expect(await fileRow(file.id)).toMatchObject({ hapticsKey: null, hapticsRevision: 0 });
  });

  it(`answers 400 for more than ${MAX_CUES} cues`, async () => {
    const file = await createFile(db, { authorId: creator.id });
    const cues = Array.from({ length: MAX_CUES + 1 }, (_, i) => ({
      time: i * 10,
      stopTime: i * 10 + 5,
      strength: 1,
    }));
    const res = await save({ fileId: file.id, revision: 0, cues }, creator.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `cues: A cue file may have at most ${MAX_CUES} cues.`,
      field: 'cues',
    });
    expect((await fileRow(file.id)).hapticsKey).toBeNull();
  });

  it('answers 413 for a body over the largest cue file', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await save(
      {
        fileId: file.id,
        revision: 0,
        cues: [{ time: 0, stopTime: 1, strength: 1 }],
        pad: 'x'.repeat(5_200_000),
      },
      creator.token,
    );
    expect(res.statusCode).toBe(413);
    expect((await fileRow(file.id)).hapticsKey).toBeNull();
  });

  it('answers 401 anonymous, 403 to others and 404 for a file they cannot see', async () => {
    const open = await createFile(db, { authorId: creator.id });
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    const body = (fileId: number) => ({ fileId, revision: 0, cues: theirs });
    expect((await save(body(open.id))).statusCode).toBe(401);
    expect((await save(body(open.id), stranger.token)).statusCode).toBe(403);
    expect((await save(body(hidden.id), stranger.token)).statusCode).toBe(404);
    expect((await save(body(999_999), creator.token)).statusCode).toBe(404);
    expect(await fileRow(open.id)).toMatchObject({ hapticsKey: null, hapticsRevision: 0 });
    expect(await fileRow(hidden.id)).toMatchObject({ hapticsKey: null, hapticsRevision: 0 });
  });
});

describe('saving over a change not seen', () => {
  it('answers 409 with the current revision to the second of two editors, keeping the first one’s cues', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const start = (await getCues(file.id, creator.token)).json().revision;
    expect((await getCues(file.id, moderator.token)).json().revision).toBe(start);
    expect((await save({ fileId: file.id, revision: start, cues: mine }, creator.token)).statusCode).toBe(
      200,
    );
    const keyAfterFirst = (await fileRow(file.id)).hapticsKey;

    const late = await save({ fileId: file.id, revision: start, cues: theirs }, moderator.token);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: CONFLICT, revision: 1 });
    const row = await fileRow(file.id);
    expect(row).toMatchObject({ hapticsKey: keyAfterFirst, hapticsRevision: 1 });
    expect(await stored(row.hapticsKey ?? '')).toEqual([mine[1], mine[0]]);

    // With the revision it was told, the second editor's save goes through.
    const retried = await save({ fileId: file.id, revision: 1, cues: theirs }, moderator.token);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().revision).toBe(2);
  });

  it('lets exactly one of two saves from the same revision at the same time win', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const [a, b] = await Promise.all([
      save({ fileId: file.id, revision: 0, cues: mine }, creator.token),
      save({ fileId: file.id, revision: 0, cues: theirs }, moderator.token),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? [mine[1], mine[0]] : theirs;
    const row = await fileRow(file.id);
    expect(row.hapticsRevision).toBe(1);
    expect(await stored(row.hapticsKey ?? '')).toEqual(winner);
    expect((a.statusCode === 409 ? a : b).json()).toEqual({ error: CONFLICT, revision: 1 });
  });

  it('answers 409 when a cue file or Funscript was uploaded meanwhile, keeping the upload', async () => {
    const file = await createFile(db, { authorId: creator.id });
    expect((await save({ fileId: file.id, revision: 0, cues: mine }, creator.token)).statusCode).toBe(200);
    const { revision } = (await getCues(file.id, creator.token)).json();
    expect(revision).toBe(1);

    expect((await upload(moderator.token, file.id, 'haptics', theirs)).statusCode).toBe(200);
    const late = await save({ fileId: file.id, revision, cues: mine }, creator.token);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: CONFLICT, revision: 2 });
    expect(await stored((await fileRow(file.id)).hapticsKey ?? '')).toEqual(theirs);

    const funscript = {
      actions: [
        { at: 0, pos: 0 },
        { at: 100, pos: 100 },
      ],
    };
    expect((await upload(creator.token, file.id, 'funscript', funscript)).statusCode).toBe(200);
    const afterFunscript = await save({ fileId: file.id, revision: 2, cues: mine }, creator.token);
    expect(afterFunscript.json()).toEqual({ error: CONFLICT, revision: 3 });
    expect((await getCues(file.id, creator.token)).json()).toEqual({
      cues: [{ time: 0, stopTime: 100, strength: 1 }],
      revision: 3,
    });
  });

  it('answers 409 when the haptics were removed meanwhile, and saves again from the new revision', async () => {
    const file = await createFile(db, { authorId: creator.id });
    expect((await save({ fileId: file.id, revision: 0, cues: mine }, creator.token)).statusCode).toBe(200);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/files/attachment?fileId=${file.id}&kind=haptics`,
      headers: authHeader(moderator.token),
    });
    expect(removed.statusCode).toBe(204);
    expect(await fileRow(file.id)).toMatchObject({ hapticsKey: null, hapticsRevision: 2 });
    const late = await save({ fileId: file.id, revision: 1, cues: theirs }, creator.token);
    expect(late.json()).toEqual({ error: CONFLICT, revision: 2 });
    expect((await fileRow(file.id)).hapticsKey).toBeNull();
    expect((await getCues(file.id, creator.token)).json()).toEqual({ cues: [], revision: 2 });
    expect((await save({ fileId: file.id, revision: 2, cues: theirs }, creator.token)).json().revision).toBe(
      3,
    );
  });
});
