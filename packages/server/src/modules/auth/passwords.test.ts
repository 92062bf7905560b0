import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id and the OWASP parameters, salted', async () => {
    const a = await hashPassword('open sesame');
    const b = await hashPassword('open sesame');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('open sesame');
    expect(await verifyPassword(stored, 'open sesame')).toBe(true);
    expect(await verifyPassword(stored, 'Open sesame')).toBe(false);
  });

  it('answers false for a missing account after doing the same work', async () => {
    const stored = await hashPassword('open sesame');
    const started = performance.now();
    await verifyPassword(stored, 'wrong');
    const withAccount = performance.now() - started;
    await verifyPassword(null, 'warm-up'); // the throwaway hash is made once
    const again = performance.now();
    expect(await verifyPassword(null, 'open sesame')).toBe(false);
    const withoutAccount = performance.now() - again;
    expect(withoutAccount).toBeGreaterThan(withAccount / 4);
  });

  it('answers false for a malformed stored hash', async () => {
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });
});
