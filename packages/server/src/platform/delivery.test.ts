// Delivery: pre-compressed assets with the right Content-Encoding, large JSON
// answers and the page compressed, HEAD answered like GET, robots.txt served as a file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { createPlaylist } from '../test/library-factories.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-delivery-'));
fs.mkdirSync(path.join(webDist, 'assets'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  `<html><head><title>Mesmer</title></head><body>${'<p>hi</p>'.repeat(200)}</body></html>`,
);
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc.js'), script);
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc.js.br'), zlib.brotliCompressSync(script));
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc.js.gz'), zlib.gzipSync(script));
fs.writeFileSync(path.join(webDist, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');

const { app } = await createTestApp({ webDist });

describe('delivery', () => {
  it('sends the brotli or gzip file the build wrote, by Accept-Encoding, and the plain one otherwise', async () => {
    const br = await app.inject({
      url: '/assets/app-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await app.inject({ url: '/assets/app-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: '/assets/app-abc.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses large JSON answers and the page, not small ones', async () => {
    const owner = await createUser(app.ctx.db);
    for (let i = 0; i < 20; i++) {
      await createPlaylist(app.ctx.db, { creatorId: owner.id, isPublic: true, description: 'd'.repeat(200) });
    }
    const plain = await app.inject({ url: '/api/playlists?pageSize=20' });
    const res = await app.inject({ url: '/api/playlists?pageSize=20', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString())).toEqual(plain.json());
    expect(Number(res.headers['content-length'])).toBeLessThan(plain.rawPayload.length / 2);
    const page = await app.inject({ url: '/files', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.rawPayload).toString()).toContain('<title>Mesmer</title>');
    const small = await app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD like GET, without a body', async () => {
    // Over a real socket: whether a HEAD answer carries a body is the HTTP layer's part (inject's
    // handling of it differs between light-my-request versions).
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const get = await fetch(`${base}/`);
    const head = await fetch(`${base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    expect((await fetch(`${base}/playlists`, { method: 'HEAD' })).status).toBe(200);
  });

  it('serves robots.txt as text, not the app page', async () => {
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('Disallow: /api/');
  });

  it('picks br over gzip, skips refused encodings', async () => {
    const owner = await createUser(app.ctx.db);
    for (let i = 0; i < 10; i++) {
      await createPlaylist(app.ctx.db, { creatorId: owner.id, isPublic: true, description: 'd'.repeat(200) });
    }
    const encodingFor = async (acceptEncoding: string | undefined) => {
      const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      const res = await app.inject({ url: '/api/playlists?pageSize=10', headers });
      expect(res.headers.vary).toContain('Accept-Encoding');
      return res.headers['content-encoding'];
    };
    expect(await encodingFor('gzip, deflate, br')).toBe('br');
    expect(await encodingFor('br;q=0, gzip')).toBe('gzip');
    expect(await encodingFor('identity')).toBeUndefined();
    expect(await encodingFor(undefined)).toBeUndefined();
  });
});
