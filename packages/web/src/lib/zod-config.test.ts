import { describe, expect, it } from 'vitest';

describe('zod-config', () => {
  it('turns off code generation in zod without importing zod', async () => {
    await import('./zod-config.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
  });
});
