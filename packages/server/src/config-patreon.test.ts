import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('Patreon settings', () => {
  it('are off without a client id (as in .env.example)', () => {
    expect(loadConfig({}).patreon).toBeUndefined();
    expect(loadConfig({ PATREON_CLIENT_ID: '', PATREON_CLIENT_SECRET: '' }).patreon).toBeUndefined();
  });

  it('read the client, with Patreon’s URL and the redirect under PUBLIC_URL by default', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://mesmer.example/',
      PATREON_CLIENT_ID: 'id',
      PATREON_CLIENT_SECRET: 'secret',
    });
    expect(config.patreon).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      webhookSecret: undefined,
      baseUrl: 'https://www.patreon.com',
      redirectUrl: 'https://mesmer.example/patreon/oauth',
    });
  });

  it('take another Patreon URL (a fake) and redirect URL', () => {
    const config = loadConfig({
      PATREON_CLIENT_ID: 'id',
      PATREON_CLIENT_SECRET: 'secret',
      PATREON_WEBHOOK_SECRET: 'webhook-secret',
      PATREON_URL: 'http://127.0.0.1:3120/',
      PATREON_REDIRECT_URL: 'https://app.example/patreon/oauth',
    });
    expect(config.patreon).toMatchObject({
      webhookSecret: 'webhook-secret',
      baseUrl: 'http://127.0.0.1:3120',
      redirectUrl: 'https://app.example/patreon/oauth',
    });
  });

  it('refuse half a client, a short webhook secret and a URL that is not http(s), naming the variable', () => {
    expect(() => loadConfig({ PATREON_CLIENT_ID: 'id' })).toThrow(/PATREON_CLIENT_SECRET: is required/);
    expect(() => loadConfig({ PATREON_CLIENT_SECRET: 'secret' })).toThrow(/PATREON_CLIENT_ID: is required/);
    expect(() => loadConfig({ PATREON_WEBHOOK_SECRET: 'long enough' })).toThrow(/PATREON_CLIENT_ID/);
    expect(() =>
      loadConfig({ PATREON_CLIENT_ID: 'id', PATREON_CLIENT_SECRET: 's', PATREON_WEBHOOK_SECRET: 'short' }),
    ).toThrow(/PATREON_WEBHOOK_SECRET: must be at least 8/);
    expect(() => loadConfig({ PATREON_URL: 'ftp://patreon.example' })).toThrow(
      /PATREON_URL: must be an http/,
    );
  });
});
