import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SITE_SETTINGS_META } from '@mesmer/shared/domain/site';
import { siteSettings } from '@mesmer/shared/domain/site-settings';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';
import { thirdPartyOrigins } from './web-app.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-web-'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<html><head><title>Mesmer</title></head><body></body></html>',
);

/** The settings the page reads, parsed back out of the meta tag as the web app does. */
function metaSettings(html: string) {
  const match = html.match(new RegExp(`<meta name="${SITE_SETTINGS_META}" content="([^"]*)"`));
  const json = (match?.[1] ?? '')
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return siteSettings.parse(JSON.parse(json));
}

describe('with ads and analytics configured', async () => {
  const { app } = await createTestApp({
    webDist,
    ads: { scriptUrl: 'https://ads.example.net/serve.js?x=1', desktopZone: 'd1', mobileZone: 'm1' },
    adFreeTierIds: ['21902510'],
    analytics: { scriptUrl: 'https://stats.example.org/js/script.js', siteId: 'site-7' },
  });

  it('passes the scripts, zones and ad-free tiers to the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(metaSettings(res.body)).toEqual({
      siteName: 'Mesmer',
      wikiUrl: 'https://wiki.mesmer.local',
      contactEmail: 'support@mesmer.local',
      ads: {
        scriptUrl: 'https://ads.example.net/serve.js?x=1',
        desktopZone: 'd1',
        mobileZone: 'm1',
        adFreeTierIds: ['21902510'],
      },
      analytics: { scriptUrl: 'https://stats.example.org/js/script.js', siteId: 'site-7' },
    });
  });

  it('opens the content security policy for exactly those two origins', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    const directives = res.headers['content-security-policy']?.split(';') ?? [];
    const both = 'https://ads.example.net https://stats.example.org';
    expect(directives).toContain(`script-src 'self' ${both}`);
    expect(directives).toContain(`connect-src 'self' ${both} ws://127.0.0.1:* ws://localhost:*`);
    expect(directives).toContain(`img-src 'self' data: blob: ${both}`);
    expect(directives).toContain(`frame-src 'self' ${both}`);
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("media-src 'self' blob:");
  });
});

describe('with nothing configured', async () => {
  const { app } = await createTestApp({ webDist });

  it('gives the page no ads or analytics settings and the CSP no other origin', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    const settings = metaSettings(res.body);
    expect(settings.ads).toBeUndefined();
    expect(settings.analytics).toBeUndefined();
    const csp = res.headers['content-security-policy'] ?? '';
    expect(csp).not.toMatch(/https?:/);
    expect(csp).not.toContain('frame-src');
  });
});

describe('thirdPartyOrigins', () => {
  it('lists each configured origin once', () => {
    expect(thirdPartyOrigins({})).toEqual([]);
    expect(
      thirdPartyOrigins({
        ads: { scriptUrl: 'https://cdn.example.com/a.js' },
        analytics: { scriptUrl: 'https://cdn.example.com:443/b.js' },
      }),
    ).toEqual(['https://cdn.example.com']);
  });
});
