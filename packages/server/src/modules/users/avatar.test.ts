import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app, config } = await createTestApp();
const db = app.ctx.db;

function form(parts: { name: string; bytes: Buffer; fileName?: string; type?: string }[]) {
  const boundary = '----avatar-test';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.fileName ?? 'a.bin'}"\r\n` +
          `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      p.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
function upload(bytes: Buffer, token?: string) {
  const body = form([{ name: 'file', bytes, fileName: 'me.jpg', type: 'image/jpeg' }]);
  return app.inject({
    method: 'POST',
    url: '/api/user/upload',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? authHeader(token) : {}) },
  });
}
async function imageUrlOf(id: number) {
  const [row] = await db.select({ imageUrl: users.imageUrl }).from(users).where(eq(users.id, id));
  return row.imageUrl;
}
const avatarFiles = () => fs.readdirSync(path.join(config.dataDir, 'media', 'avatars')).sort();

/** A 300×200 JPEG carrying EXIF with a GPS position and a camera model. */
async function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366aa' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'Spy 9000' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
}

describe('POST /api/user/upload', () => {
  it('re-encodes to 64 and 256 px WebP without metadata, saves imageURL and serves it publicly', async () => {
    const me = await createSignedInUser(app);
    const photo = await photoWithGps();
    const before = await sharp(photo).metadata();
    expect(before.exif).toBeDefined();
    expect(photo.includes(Buffer.from('SecretCam'))).toBe(true);

    const res = await upload(photo, me.token);
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`^/avatars/${me.id}-[0-9a-f]{16}-large\\.webp$`));
    expect(await imageUrlOf(me.id)).toBe(url);
    const name = url.slice('/avatars/'.length);
    expect(avatarFiles()).toEqual(
      [name.replace('-large', '-large'), name.replace('-large', '-small')].sort(),
    );

    // Served to anyone (signed out too).
    const large = await app.inject({ method: 'GET', url });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-type']).toBe('image/webp');
    const meta = await sharp(large.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(large.rawPayload.includes(Buffer.from('SecretCam'))).toBe(false);
    const small = await app.inject({ method: 'GET', url: url.replace('-large', '-small') });
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 64, height: 64 });
    expect((await sharp(small.rawPayload).metadata()).exif).toBeUndefined();

    // The public user answer carries it.
    const profile = await app.inject({ method: 'GET', url: `/api/user?username=${me.username}` });
    expect(profile.json().user.imageURL).toBe(url);
  });

  it('deletes the old avatar when a new one comes', async () => {
    const me = await createSignedInUser(app);
    const png = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#ff000080' } })
      .png()
      .toBuffer();
    const first = (await upload(png, me.token)).json().url as string;
    const gif = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    const second = await upload(gif, me.token);
    expect(second.statusCode).toBe(200);
    expect(await imageUrlOf(me.id)).toBe(second.json().url);
    const mine = avatarFiles().filter((f) => f.startsWith(`${me.id}-`));
    expect(mine).toHaveLength(2);
    expect(mine.every((f) => second.json().url.includes(f.slice(0, -'-small.webp'.length)))).toBe(true);
    expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
  });

  it('400 naming file for something that is not an image, or no file; nothing saved', async () => {
    const me = await createSignedInUser(app);
    const text = await upload(Buffer.from('just some text, not a picture'), me.token);
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ field: 'file' });
    // An SVG is not among the accepted types.
    const svg = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), me.token);
    expect(svg.statusCode).toBe(400);
    expect(svg.json()).toMatchObject({ field: 'file' });
    const none = await app.inject({
      method: 'POST',
      url: '/api/user/upload',
      payload: { file: 'x' },
      headers: authHeader(me.token),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'file' });
    expect(await imageUrlOf(me.id)).toBeNull();
  });

  it("413 'The image must be 5 MB or smaller.' above 5 MB", async () => {
    const me = await createSignedInUser(app);
    const big = Buffer.concat([await photoWithGps(), Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(big, me.token);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The image must be 5 MB or smaller.' });
    const huge = await upload(Buffer.alloc(6 * 1024 * 1024), me.token);
    expect(huge.statusCode).toBe(413);
    expect(await imageUrlOf(me.id)).toBeNull();
  });

  it('401 signed out; unknown or foreign avatar names are 404', async () => {
    expect((await upload(await photoWithGps())).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/avatars/1-0123456789abcdef-large.webp' })).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/avatars/..%2Faudio%2Fx.wav' })).statusCode).toBe(404);
  });
});
