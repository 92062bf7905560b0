import { describe, expect, it } from 'vitest';
import { TestClock } from '../test/harness.ts';
import { MemoryRateLimitStore } from './rate-limit.ts';

const MINUTE_MS = 60_000;

describe('MemoryRateLimitStore', () => {
  it('counts within a window and starts again once it ends', async () => {
    const clock = new TestClock();
    const store = new MemoryRateLimitStore(clock);
    expect(await store.hit('a', MINUTE_MS)).toEqual({ count: 1, resetInMs: MINUTE_MS });
    clock.advance(20_000);
    expect(await store.hit('a', MINUTE_MS)).toEqual({ count: 2, resetInMs: 40_000 });
    await store.undo('a');
    expect(await store.hit('a', MINUTE_MS)).toEqual({ count: 2, resetInMs: 40_000 });
    clock.advance(40_000);
    expect(await store.hit('a', MINUTE_MS)).toEqual({ count: 1, resetInMs: MINUTE_MS });
  });

  it('forgets entries whose window ended, without being full', async () => {
    const clock = new TestClock();
    const store = new MemoryRateLimitStore(clock);
    for (let i = 0; i < 500; i++) await store.hit(`key ${i}`, MINUTE_MS);
    expect(store.size).toBe(500);
    clock.advance(MINUTE_MS);
    await store.hit('later', MINUTE_MS);
    expect(store.size).toBe(1);
  });

  it('keeps at most its maximum of entries, dropping the oldest window first', async () => {
    const clock = new TestClock();
    const store = new MemoryRateLimitStore(clock, 3);
    for (const key of ['a', 'b', 'c', 'd']) {
      await store.hit(key, MINUTE_MS);
      clock.advance(1000);
    }
    expect(store.size).toBe(3);
    expect((await store.hit('d', MINUTE_MS)).count).toBe(2);
    expect((await store.hit('c', MINUTE_MS)).count).toBe(2);
    expect((await store.hit('a', MINUTE_MS)).count).toBe(1);
    expect(store.size).toBe(3);
  });
});
