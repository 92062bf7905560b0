import { MAX_ATTACHMENT_BYTES } from '@mesmer/shared/domain/attachments';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);

type Signed = TestUser & { token: string };
let owner: Signed;
let creator: Signed;
let stranger: Signed;
let moderator: Signed;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
  stranger = await createSignedInUser(app, { username: 'stranger', roles: ['Verified Creator'] });
  moderator = await createSignedInUser(app, { username: 'moderator', roles: ['Moderator'] });
});

/** POST /api/files/attachment as a browser sends it: multipart fields, then the file part. */
async function attach(
  token: string | undefined,
  fields: Record<string, string>,
  content?: string | Uint8Array<ArrayBuffer>,
  fileName = 'cues.json',
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (content !== undefined) form.append('file', new Blob([content]), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: '/api/files/attachment',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: {
      'content-type': request.headers.get('content-type') ?? '',
      ...(token ? authHeader(token) : {}),
    },
  });
}

const fileRow = async (id: number) => (await db.select().from(files).where(eq(files.id, id)))[0];
const stored = async (key: string) => {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.createReadStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** Haptics are stored under a new key at every change: haptics/<uuid>-<12 hex>.json. */
const hapticsKeyPattern = (uuid: string) => new RegExp(`^haptics/${uuid}-[0-9a-f]{12}\\.json$`);

const cues = [
  { time: 1000, stopTime: 2000, strength: 0.5 },
  { time: 0, stopTime: 500, strength: 1 },
];

describe('POST /api/files/attachment', () => {
  it('stores a cue file under a new haptics/<uuid>-<hex>.json key, saves it and raises the revision', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await attach(
      creator.token,
      { fileId: String(file.id), kind: 'haptics' },
      JSON.stringify(cues),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().file).toMatchObject({ id: file.id, hasHaptics: true, hapticsURL: expect.any(String) });
    const row = await fileRow(file.id);
    const key = row.hapticsKey ?? '';
    expect(key).toMatch(hapticsKeyPattern(file.uuid));
    expect(row.hapticsRevision).toBe(1);
    expect(JSON.parse(await stored(key))).toEqual([cues[1], cues[0]]);
    const served = await app.inject({
      method: 'GET',
      url: res.json().file.hapticsURL,
      headers: authHeader(creator.token),
    });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual([cues[1], cues[0]]);
  });

  it('converts a Funscript to cues and stores them as the haptics', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const funscript = {
      version: '1.0',
      inverted: false,
      range: 100,
      actions: [
        { at: 0, pos: 0 },
        { at: 200, pos: 100 },
        { at: 1200, pos: 50 },
      ],
    };
    const res = await attach(
      creator.token,
      { fileId: String(file.id), kind: 'funscript' },
      JSON.stringify(funscript),
      'scene.funscript',
    );
    expect(res.statusCode).toBe(200);
    const key = (await fileRow(file.id)).hapticsKey ?? '';
    expect(key).toMatch(hapticsKeyPattern(file.uuid));
    expect(JSON.parse(await stored(key))).toEqual([
      { time: 0, stopTime: 200, strength: 1 },
      { time: 200, stopTime: 1200, strength: 0.1 },
    ]);
  });

  it('stores a script under scripts/<uuid>.txt', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await attach(
      creator.token,
      { fileId: String(file.id), kind: 'script' },
      'Breathe in… and out.',
      'a.txt',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().file.scriptURL).toEqual(expect.any(String));
    const key = `scripts/${file.uuid}.txt`;
    expect((await fileRow(file.id)).scriptKey).toBe(key);
    expect(await stored(key)).toBe('Breathe in… and out.');
  });

  it('lets WRITE_ALL_FILES holders attach to any file', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await attach(
      moderator.token,
      { fileId: String(file.id), kind: 'script' },
      'Staff notes.',
      'a.txt',
    );
    expect(res.statusCode).toBe(200);
  });

  it('answers 400 naming the first problem, and stores nothing', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const fileId = String(file.id);
    const cases: [Record<string, string>, string | Uint8Array<ArrayBuffer> | undefined, string][] = [
      [
        { fileId, kind: 'haptics' },
        JSON.stringify([cues[0], { time: 5, stopTime: 4, strength: 1 }]),
        'file: Cue 2: stopTime must be a number after time.',
      ],
      [{ fileId, kind: 'haptics' }, '{not json', 'file: The file is not valid JSON.'],
      // 4.8 MB nested 2.4 million levels: refused by a scan before JSON.parse builds any of it.
      [
        { fileId, kind: 'haptics' },
        '['.repeat(2_400_000) + ']'.repeat(2_400_000),
        'file: The file nests lists or objects deeper than 64 levels.',
      ],
      [
        { fileId, kind: 'funscript' },
        JSON.stringify({
          actions: [
            { at: 0, pos: 0 },
            { at: 9, pos: 120 },
          ],
        }),
        'file: Action 2: pos must be a number from 0 to 100.',
      ],
      [{ fileId, kind: 'script' }, new Uint8Array([0x61, 0xff]), 'file: The file is not UTF-8 text.'],
      [{ fileId, kind: 'script' }, 'a\0b', 'file: The script contains NUL characters.'],
      [{ fileId, kind: 'script' }, '', 'file: the file is empty.'],
      [{ fileId, kind: 'script' }, undefined, 'file: is required'],
    ];
    for (const [fields, content, error] of cases) {
      const res = await attach(creator.token, fields, content);
      expect(res.statusCode, error).toBe(400);
      expect(res.json(), error).toEqual({ error, field: 'file' });
    }
    const kindless = await attach(creator.token, { fileId }, '[]');
    expect(kindless.statusCode).toBe(400);
    expect(kindless.json()).toMatchObject({ error: expect.stringMatching(/^kind: /), field: 'kind' });
    const idless = await attach(creator.token, { kind: 'script' }, 'text');
    expect(idless.json()).toMatchObject({ error: expect.stringMatching(/^fileId: /), field: 'fileId' });
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/api/files/attachment',
      payload: { fileId: file.id, kind: 'script' },
      headers: authHeader(creator.token),
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().field).toBe('body');
    expect(await fileRow(file.id)).toMatchObject({ hapticsKey: null, scriptKey: null, hapticsRevision: 0 });
  });

  it('answers 413 for a file over 5 MB', async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await attach(
      creator.token,
      { fileId: String(file.id), kind: 'script' },
      'a'.repeat(MAX_ATTACHMENT_BYTES + 1),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'An attachment may be at most 5 MB.' });
    const huge = await attach(
      creator.token,
      { fileId: String(file.id), kind: 'script' },
      'a'.repeat(MAX_ATTACHMENT_BYTES + 100_000),
    );
    expect(huge.statusCode).toBe(413);
    expect((await fileRow(file.id)).scriptKey).toBeNull();
  });

  it('answers 401 anonymous, 403 to others and 404 for a file they cannot see', async () => {
    const open = await createFile(db, { authorId: creator.id });
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    const body = JSON.stringify(cues);
    expect((await attach(undefined, { fileId: String(open.id), kind: 'haptics' }, body)).statusCode).toBe(
      401,
    );
    expect(
      (await attach(stranger.token, { fileId: String(open.id), kind: 'haptics' }, body)).statusCode,
    ).toBe(403);
    expect(
      (await attach(stranger.token, { fileId: String(hidden.id), kind: 'haptics' }, body)).statusCode,
    ).toBe(404);
    expect((await attach(owner.token, { fileId: '999999', kind: 'haptics' }, body)).statusCode).toBe(404);
    expect((await fileRow(open.id)).hapticsKey).toBeNull();
  });
});

describe('DELETE /api/files/attachment', () => {
  it('removes the haptics or the script from the row and from storage', async () => {
    const file = await createFile(db, { authorId: creator.id });
    await attach(creator.token, { fileId: String(file.id), kind: 'haptics' }, JSON.stringify(cues));
    const hapticsKey = (await fileRow(file.id)).hapticsKey ?? '';
    await attach(creator.token, { fileId: String(file.id), kind: 'script' }, 'words', 'a.txt');
    const del = (kind: string, token = creator.token) =>
      app.inject({
        method: 'DELETE',
        url: `/api/files/attachment?fileId=${file.id}&kind=${kind}`,
        headers: authHeader(token),
      });
    expect((await del('haptics')).statusCode).toBe(204);
    expect(await fileRow(file.id)).toMatchObject({
      hapticsKey: null,
      hapticsRevision: 2,
      scriptKey: `scripts/${file.uuid}.txt`,
    });
    expect(await storage.stat(hapticsKey)).toBeNull();
    expect((await del('script', moderator.token)).statusCode).toBe(204);
    expect((await fileRow(file.id)).scriptKey).toBeNull();
    expect(await storage.stat(`scripts/${file.uuid}.txt`)).toBeNull();
    expect((await del('script')).statusCode).toBe(204);
  });

  it('answers 400 naming the field, 401, 403 and 404', async () => {
    const file = await createFile(db, { authorId: creator.id, haptics: true });
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false, haptics: true });
    const del = (query: string, token?: string) =>
      app.inject({
        method: 'DELETE',
        url: `/api/files/attachment?${query}`,
        headers: token ? authHeader(token) : {},
      });
    expect((await del(`fileId=${file.id}&kind=funscript`, creator.token)).json().field).toBe('kind');
    expect((await del('kind=haptics', creator.token)).json().field).toBe('fileId');
    expect((await del(`fileId=${file.id}&kind=haptics`)).statusCode).toBe(401);
    expect((await del(`fileId=${file.id}&kind=haptics`, stranger.token)).statusCode).toBe(403);
    expect((await del(`fileId=${hidden.id}&kind=haptics`, stranger.token)).statusCode).toBe(404);
    expect((await fileRow(file.id)).hapticsKey).toBe(`haptics/${file.uuid}.json`);
  });
});

describe('kept answers', () => {
  it('show an attachment at once', async () => {
    const file = await createFile(db, { authorId: creator.id, name: 'Kept Haptics' });
    const hasHaptics = async () => {
      const res = await app.inject({ method: 'GET', url: `/api/files?uuid=${file.uuid}` });
      return { cache: res.headers['x-cache'], hasHaptics: res.json().files[0].hasHaptics };
    };
    await hasHaptics();
    expect(await hasHaptics()).toEqual({ cache: 'hit', hasHaptics: false });
    await attach(creator.token, { fileId: String(file.id), kind: 'haptics' }, JSON.stringify(cues));
    expect(await hasHaptics()).toEqual({ cache: 'miss', hasHaptics: true });
    await app.inject({
      method: 'DELETE',
      url: `/api/files/attachment?fileId=${file.id}&kind=haptics`,
      headers: authHeader(creator.token),
    });
    expect(await hasHaptics()).toEqual({ cache: 'miss', hasHaptics: false });
  });
});
