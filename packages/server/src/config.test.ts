import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.siteName).toBe('Mesmer');
    expect(config.seedDemo).toBe(true);
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

  it('treats empty values as unset and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ DATABASE_URL: '', PUBLIC_URL: 'https://mesmer.example/' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('https://mesmer.example');
  });
});
