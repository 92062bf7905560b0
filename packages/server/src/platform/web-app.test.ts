import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ageGateMarkup } from '@mesmer/shared/domain/age-gate';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<html><head><title>Mesmer</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
fs.writeFileSync(
  path.join(webDist, 'page-preloads.json'),
  JSON.stringify({
    '/files': {
      scripts: ['/assets/FilesPage-1.js', '/assets/list-2.js'],
      styles: ['/assets/FilesPage-1.css'],
    },
    '/playlist/:uuid': { scripts: ['/assets/PlaylistPage-3.js'], styles: [] },
  }),
);

const { app } = await createTestApp({
  webDist,
  wikiUrl: 'https://wiki.example.org/"quoted"',
  discordInstallUrl: 'https://discord.example/authorize?client_id=1',
});

/** A page as a visitor who confirmed their age asks for it (the cookie the app sets). */
const pastTheGate = (url: string) => app.inject({ method: 'GET', url, cookies: { ageConfirmed: 'true' } });

describe('serving the web app', () => {
  it('answers every app path with index.html carrying the run-time site settings, escaped', async () => {
    const res = await app.inject({ method: 'GET', url: '/playlists?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(
      '<meta name="mesmer-site" content="{&quot;siteName&quot;:&quot;Mesmer&quot;,&quot;wikiUrl&quot;:&quot;https://wiki.example.org/\\&quot;quoted\\&quot;&quot;,&quot;contactEmail&quot;:&quot;support@mesmer.local&quot;}" /></head>',
    );
  });

  it("carries the 18+ gate's markup until the visitor's cookie says they confirmed", async () => {
    const firstVisit = await app.inject({ method: 'GET', url: '/files' });
    expect(firstVisit.body).toContain(
      `<div id="root"></div><div id="served-age-gate">${ageGateMarkup()}</div>`,
    );
    expect(firstVisit.body).toContain('<h1 id="age-gate-title">Adults only</h1>');
    expect(String(firstVisit.headers.vary).split(', ')).toContain('Cookie');
    const confirmed = await pastTheGate('/files');
    expect(confirmed.body).toContain('</head><body><div id="root"></div></body>');
    expect(confirmed.body).not.toContain('Adults only');
    const otherValue = await app.inject({ method: 'GET', url: '/files', cookies: { ageConfirmed: 'yes' } });
    expect(otherValue.body).toContain('Adults only');
  });

  it("names the signed-in user's address and the page's scripts and styles in the HTML of a visitor past the gate", async () => {
    const files = await pastTheGate('/files?page=2');
    expect(files.body).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/user">' +
        '<link rel="stylesheet" crossorigin href="/assets/FilesPage-1.css">' +
        '<link rel="modulepreload" crossorigin href="/assets/FilesPage-1.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/list-2.js"></head>',
    );
    const playlist = await pastTheGate('/playlist/b37e');
    // A page with a first call (shared/api/page-first-requests.ts) starts it too.
    expect(playlist.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/PlaylistPage-3.js">' +
        '<link rel="preload" as="fetch" crossorigin href="/api/playlists?uuid=b37e"></head>',
    );
    expect(playlist.body).not.toContain('FilesPage');
    // Whatever the address holds lands in the query string encoded, never as markup.
    const crafted = await pastTheGate('/playlist/%22%3E%3Cscript%3E');
    expect(crafted.body).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/playlists?uuid=%22%3E%3Cscript%3E"></head>',
    );
    expect(crafted.body).not.toContain('<script>');
    // No page at that address: only the user. A first visit shows the gate, not the library: nothing.
    const nowhere = await pastTheGate('/playlist/b37e/x');
    expect(nowhere.body).not.toContain('modulepreload');
    expect(nowhere.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/user"></head>');
    const firstVisit = (await app.inject({ method: 'GET', url: '/files' })).body;
    expect(firstVisit).not.toContain('modulepreload');
    expect(firstVisit).not.toContain('/api/user');
  });

  it('serves hashed assets with long-lived caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps JSON 404s for unknown API paths and non-GET requests', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/nope' })).json()).toEqual({ error: 'Not found.' });
    const post = await app.inject({ method: 'POST', url: '/somewhere' });
    expect(post.statusCode).toBe(404);
  });

  it('redirects /discord/install to the bot-authorisation page', async () => {
    const res = await app.inject({ method: 'GET', url: '/discord/install' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://discord.example/authorize?client_id=1');
  });

  it('sends security headers, whose policy lets the page load and connect to this site only', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']?.split(';')).toEqual([
      "default-src 'self'",
      "base-uri 'self'",
      "font-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'self'",
      "img-src 'self' data: blob:",
      "object-src 'none'",
      "script-src 'self'",
      "script-src-attr 'none'",
      "style-src 'self' 'unsafe-inline'",
      "media-src 'self' blob:",
      "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
    ]);
  });
});
