import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.siteName).toBe('Mesmer');
    expect(config.seedDemo).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.cookieDays).toBe(30);
  });

  it('stops with a message naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toMatch(/^Invalid configuration:/);
      expect(message).toContain('PORT:');
      expect(message).toContain('DATABASE_URL: must start with postgres:// or postgresql://');
      expect(message).toContain('SEED_DEMO:');
    }
  });

  it('seeds the demo library by default except in production, where only SEED_DEMO=force does', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'force' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' })).toThrow(
      'SEED_DEMO: the demo accounts have a published password; in production use SEED_DEMO=force to seed them anyway, or leave it unset',
    );
  });

  it('trusts no proxy by default; TRUST_PROXY takes a hop count or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(`TRUST_PROXY: "${bad}" is not a hop count`);
    }
  });

  it('treats empty values as unset and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ DATABASE_URL: '', PUBLIC_URL: 'https://mesmer.example/' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('https://mesmer.example');
  });

  it('keeps media in the folder unless S3_BUCKET is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: '', S3_REGION: 'us-east-1' }).s3).toBeUndefined();
  });

  it('S3_BUCKET alone: AWS in us-east-1, credentials from the SDK, bucket in the host name', () => {
    expect(loadConfig({ S3_BUCKET: 'mesmer-media' }).s3).toEqual({
      bucket: 'mesmer-media',
      region: 'us-east-1',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it('an S3-compatible endpoint with a key pair addresses the bucket in the path unless told not to', () => {
    const env = {
      S3_BUCKET: 'media.example',
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(env).s3).toEqual({
      bucket: 'media.example',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(loadConfig({ ...env, S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
    expect(loadConfig({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(true);
  });

  it('names each bad S3 variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ S3_BUCKET: 'No_Such' }, 'S3_BUCKET: must be a bucket name'],
      [{ S3_BUCKET: 'ab' }, 'S3_BUCKET: must be a bucket name'],
      [{ S3_BUCKET: 'b-1', S3_REGION: 'EU West' }, 'S3_REGION: must be a region name such as us-east-1'],
      [
        { S3_BUCKET: 'b-1', S3_ENDPOINT: 'localhost:9000' },
        'S3_ENDPOINT: must be an http:// or https:// URL',
      ],
      [{ S3_BUCKET: 'b-1', S3_ENDPOINT: 'ftp://host' }, 'S3_ENDPOINT: must be an http:// or https:// URL'],
      [{ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE:'],
      [
        { S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' },
        'S3_SECRET_ACCESS_KEY: is required with S3_ACCESS_KEY_ID',
      ],
      [
        { S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 's' },
        'S3_ACCESS_KEY_ID: is required with S3_SECRET_ACCESS_KEY',
      ],
      [
        { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 's' },
        'S3_BUCKET: is required with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('takes a METRICS_TOKEN of at least 16 printable characters without spaces', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-me-0123456789' }).metricsToken).toBe('scrape-me-0123456789');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN: must be at least 16 characters',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, long' })).toThrow(
      'METRICS_TOKEN: must be printable ASCII without spaces',
    );
  });
});
