import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SESSION_COOKIE,
  SESSION_MARKER_COOKIE,
  SITE_SETTINGS_META,
  siteSettings,
} from '@mesmer/shared/domain/site';
import { describe, expect, it } from 'vitest';
import { createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';

/**
 * The web reads the session marker cookie and the site-settings tag by the names and shape in
 * shared/domain/site; here the server's real answers are held against the same definitions.
 */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-site-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<html><head></head><body></body></html>');
const { app } = await createTestApp({ webDist, siteName: 'Trance Hub' });

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
    const res = await app.inject({ method: 'GET', url: '/' });
    const match = res.body.match(new RegExp(`<meta name="${SITE_SETTINGS_META}" content="([^"]*)"`));
    expect(match).not.toBeNull();
    const content = (match?.[1] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    expect(siteSettings.parse(JSON.parse(content))).toEqual({
      siteName: 'Trance Hub',
      wikiUrl: 'https://wiki.mesmer.local',
      contactEmail: 'support@mesmer.local',
    });
  });
});
