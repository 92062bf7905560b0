import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('ads and analytics settings', () => {
  it('are off with nothing set, with the spec ad-free tiers', () => {
    const config = loadConfig({});
    expect(config.ads).toBeUndefined();
    expect(config.analytics).toBeUndefined();
    expect(config.adFreeTierIds).toEqual(['21902510', '21927318']);
  });

  it('reads the ad network, its zones, the tiers and analytics', () => {
    const config = loadConfig({
      AD_NETWORK_SCRIPT_URL: 'https://ads.example.net/serve.js',
      AD_ZONE_DESKTOP: '111',
      AD_ZONE_MOBILE: '222',
      AD_FREE_TIER_IDS: ' 1, 2 ,3',
      ANALYTICS_SCRIPT_URL: 'https://stats.example.org/script.js',
      ANALYTICS_SITE_ID: 'abc',
    });
    expect(config.ads).toEqual({
      scriptUrl: 'https://ads.example.net/serve.js',
      desktopZone: '111',
      mobileZone: '222',
    });
    expect(config.adFreeTierIds).toEqual(['1', '2', '3']);
    expect(config.analytics).toEqual({ scriptUrl: 'https://stats.example.org/script.js', siteId: 'abc' });
  });

  it('treats empty values (as in .env.example) as unset', () => {
    const config = loadConfig({ AD_NETWORK_SCRIPT_URL: '', ANALYTICS_SCRIPT_URL: '' });
    expect(config.ads).toBeUndefined();
    expect(config.analytics).toBeUndefined();
  });

  it('refuses a script URL that is not http(s) and a tier list that is not ids, naming the variable', () => {
    expect(() => loadConfig({ AD_NETWORK_SCRIPT_URL: 'javascript:alert(1)' })).toThrow(
      /AD_NETWORK_SCRIPT_URL: must be an http/,
    );
    expect(() => loadConfig({ ANALYTICS_SCRIPT_URL: 'not a url' })).toThrow(/ANALYTICS_SCRIPT_URL/);
    expect(() => loadConfig({ AD_FREE_TIER_IDS: '12,abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ AD_FREE_TIER_IDS: '12,abc' })).toThrow(/AD_FREE_TIER_IDS/);
  });
});
