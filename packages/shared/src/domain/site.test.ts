import { describe, expect, it } from 'vitest';
import { pageTitle } from './site.ts';
import { siteSettings } from './site-settings.ts';

describe('pageTitle', () => {
  it('puts the page before the site name', () => {
    expect(pageTitle('Cookie Policy', 'Trance Hub')).toBe('Cookie Policy - Trance Hub');
  });

  it('is the site name alone without a page title', () => {
    expect(pageTitle('', 'Trance Hub')).toBe('Trance Hub');
  });
});

describe('siteSettings', () => {
  it('accepts what the server injects and names a bad field', () => {
    const good = { siteName: 'Trance Hub', wikiUrl: 'https://wiki.example', contactEmail: 'a@b.example' };
    expect(siteSettings.parse(good)).toEqual(good);
    const bad = siteSettings.safeParse({ ...good, wikiUrl: 'nope' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['wikiUrl']);
  });
});
