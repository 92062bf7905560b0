// Per-account limits on uploads, avatars, attachments and friend requests: they
// count by account, so a new address does not reset them, and answer 429 with Retry-After.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../platform/account-limits.ts';
import { authHeader, createSignedInUser, createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { createFile } from '../test/library-factories.ts';

const { app } = await createTestApp({ rateLimit: true });
const db = app.ctx.db;

/** A multipart body from fields and file parts, as a browser's FormData sends it. */
async function multipart(
  fields: Record<string, string>,
  file?: { field: string; name: string; bytes: Buffer },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') as string,
  };
}

async function post(
  url: string,
  token: string,
  body: Awaited<ReturnType<typeof multipart>>,
  remoteAddress?: string,
) {
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    remoteAddress,
    headers: { ...authHeader(token), 'content-type': body.contentType },
  });
}

function expectLimited(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('per-account limits', () => {
  it(`starting uploads: ${ACCOUNT_LIMITS.uploadsStarted.max} an hour; chunks of a started upload still go in`, async () => {
    const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
    const chunk = (uuid: string, index: number, total: number) =>
      multipart(
        {
          uuid,
          fileName: 'a.mp3',
          secure: 'false',
          chunkIndex: String(index),
          totalChunks: String(total),
          chunkSize: '4',
        },
        { field: 'chunk', name: 'blob', bytes: Buffer.from('abcd') },
      );
    const twoPart = randomUUID();
    const first = await post(
      '/api/files/upload',
      creator.token,
      await multipart(
        {
          uuid: twoPart,
          fileName: 'a.mp3',
          secure: 'false',
          chunkIndex: '1',
          totalChunks: '2',
          chunkSize: '4',
        },
        { field: 'chunk', name: 'blob', bytes: Buffer.from('abcd') },
      ),
    );
    expect(first.statusCode, first.body).toBe(200);
    for (let i = 1; i < ACCOUNT_LIMITS.uploadsStarted.max; i++) {
      const res = await post('/api/files/upload', creator.token, await chunk(randomUUID(), 0, 1));
      expect(res.statusCode, res.body).toBe(200);
    }
    expectLimited(
      await post('/api/files/upload', creator.token, await chunk(randomUUID(), 0, 1), '10.9.9.9'),
    );
    // The started upload's chunk sent again is not a new upload.
    const again = await post(
      '/api/files/upload',
      creator.token,
      await multipart(
        {
          uuid: twoPart,
          fileName: 'a.mp3',
          secure: 'false',
          chunkIndex: '1',
          totalChunks: '2',
          chunkSize: '4',
        },
        { field: 'chunk', name: 'blob', bytes: Buffer.from('abcd') },
      ),
    );
    expect(again.statusCode, again.body).toBe(200);
  });

  it(`profile images: ${ACCOUNT_LIMITS.avatarUploads.max} an hour`, async () => {
    const user = await createSignedInUser(app);
    const body = await multipart({}, { field: 'file', name: 'me.png', bytes: Buffer.from('not an image') });
    for (let i = 0; i < ACCOUNT_LIMITS.avatarUploads.max; i++) {
      expect((await post('/api/user/upload', user.token, body)).statusCode).toBe(400);
    }
    expectLimited(await post('/api/user/upload', user.token, body, '10.9.9.8'));
  });

  it(`attachments: ${ACCOUNT_LIMITS.attachments.max} an hour`, async () => {
    const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
    const file = await createFile(db, { authorId: creator.id });
    const body = await multipart(
      { fileId: String(file.id), kind: 'script' },
      { field: 'file', name: 'script.txt', bytes: Buffer.from('Relax.') },
    );
    for (let i = 0; i < ACCOUNT_LIMITS.attachments.max; i++) {
      const res = await post('/api/files/attachment', creator.token, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    expectLimited(await post('/api/files/attachment', creator.token, body, '10.9.9.7'));
  });

  it(`friend requests: ${ACCOUNT_LIMITS.friendRequests.max} new ones an hour; accepting is not limited`, async () => {
    const user = await createSignedInUser(app);
    const asker = await createSignedInUser(app);
    const add = (token: string, friendId: number, remoteAddress?: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/user/friends',
        payload: { friendId },
        remoteAddress,
        headers: authHeader(token),
      });
    expect((await add(asker.token, user.id)).statusCode).toBe(200);
    for (let i = 0; i < ACCOUNT_LIMITS.friendRequests.max; i++) {
      const other = await createUser(db);
      expect((await add(user.token, other.id)).statusCode).toBe(200);
    }
    const one = await createUser(db);
    expectLimited(await add(user.token, one.id, '10.9.9.6'));
    const accepted = await add(user.token, asker.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().friends.map((f: { id: number }) => f.id)).toContain(asker.id);
  });
});
