import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../test/harness.ts';
import { clientKey, MemoryRateLimitStore, tooManyAttemptsMessage } from './rate-limit.ts';

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

describe('clientKey', () => {
  it('is the IPv4 address, also when IPv6-mapped, and the /64 network of an IPv6 address', () => {
    const key = (ip: string) => clientKey({ ip } as FastifyRequest);
    expect(key('203.0.113.9')).toBe('203.0.113.9');
    expect(key('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(key('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(key('2001:DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(key('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(key('::1')).toBe('0:0:0:0::/64');
  });
});

describe('tooManyAttemptsMessage', () => {
  it('says how long to wait in words', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Please wait a minute and try again.');
    expect(tooManyAttemptsMessage(60)).toBe('Too many attempts. Please wait a minute and try again.');
    expect(tooManyAttemptsMessage(61)).toBe('Too many attempts. Please wait 2 minutes and try again.');
    expect(tooManyAttemptsMessage(15 * 60)).toBe('Too many attempts. Please wait 15 minutes and try again.');
    expect(tooManyAttemptsMessage(3600)).toBe('Too many attempts. Please wait an hour and try again.');
    expect(tooManyAttemptsMessage(3601)).toBe('Too many attempts. Please wait 2 hours and try again.');
  });
});
