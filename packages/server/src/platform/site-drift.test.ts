import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE, SESSION_MARKER_COOKIE, SITE_SETTINGS_META } from '@mesmer/shared/domain/site';
import { siteSettings } from '@mesmer/shared/domain/site-settings';
import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';

/**
 * The web reads the session marker cookie and the site-settings tag by the names and shape in
 * shared/domain/site; here the server's real answers are held against the same definitions.
 */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-site-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<html><head></head><body></body></html>');
const { app } = await createTestApp({ webDist, siteName: 'Trance Hub' });
// The same build on a site with Patreon and Lovense configured (no call reaches them here).
const { app: linkedApp } = await createTestApp({
  webDist,
  siteName: 'Trance Hub',
  lovense: { developerToken: 'dev-token', apiUrl: 'http://127.0.0.1:9' },
  patreon: {
    clientId: 'client',
    clientSecret: 'client-secret',
    baseUrl: 'http://127.0.0.1:9',
    redirectUrl: 'http://localhost:3000/patreon/oauth',
  },
});

/** The settings in the tag of `/`, read with the web's schema. */
async function servedSettings(from: typeof app) {
  const res = await from.inject({ method: 'GET', url: '/' });
  const match = res.body.match(new RegExp(`<meta name="${SITE_SETTINGS_META}" content="([^"]*)"`));
  expect(match).not.toBeNull();
  const content = (match?.[1] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return siteSettings.parse(JSON.parse(content));
}

describe('site rules: shared and server agree', () => {
  it('sign-in sets the session cookie and the readable marker under the shared names', async () => {
    const user = await createUser(app.ctx.db, { username: 'cookie' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { user: user.username, password: user.password, timezone: 'UTC' },
    });
    expect(res.statusCode).toBe(200);
    const byName = new Map(res.cookies.map((c) => [c.name, c]));
    expect(byName.get(SESSION_COOKIE)).toMatchObject({ value: res.json().token, httpOnly: true });
    expect(byName.get(SESSION_MARKER_COOKIE)).toMatchObject({ value: String(user.id) });
    expect(byName.get(SESSION_MARKER_COOKIE)?.httpOnly).toBeUndefined();
  });

  it('index.html carries the run-time site settings in the tag and shape the web reads', async () => {
    expect(await servedSettings(app)).toEqual({
      siteName: 'Trance Hub',
      wikiUrl: 'https://wiki.mesmer.local',
      contactEmail: 'support@mesmer.local',
    });
  });

  it('says Patreon and Lovense are there only when configured, as their calls answer', async () => {
    expect(await servedSettings(linkedApp)).toEqual({
      siteName: 'Trance Hub',
      wikiUrl: 'https://wiki.mesmer.local',
      contactEmail: 'support@mesmer.local',
      patreonLinking: true,
      lovensePairing: true,
    });
    // Without the flags the calls the web app would make answer 503: it makes none of them.
    const settings = await servedSettings(app);
    expect(settings).not.toHaveProperty('patreonLinking');
    expect(settings).not.toHaveProperty('lovensePairing');
    const user = await createSignedInUser(app, { username: 'unlinked' });
    for (const url of ['/api/lovense/toys', '/api/patreon/authorize']) {
      const res = await app.inject({ method: 'GET', url, headers: authHeader(user.token) });
      expect(res.statusCode, url).toBe(503);
    }
    const linkedUser = await createSignedInUser(linkedApp, { username: 'linkable' });
    const toys = await linkedApp.inject({
      method: 'GET',
      url: '/api/lovense/toys',
      headers: authHeader(linkedUser.token),
    });
    expect(toys.statusCode).toBe(200);
  });
});
