import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createServedAudioBuffer,
  FLUSH_AT_RANGES,
  FLUSH_AT_SESSIONS,
  FLUSH_EVERY_MS,
  type PendingServed,
} from './served-audio-buffer.ts';

// When the buffer stores; what storing does to the rows is tested through the media route
// (listening.test.ts).

const errors: unknown[] = [];
const log = { error: (...args: unknown[]) => errors.push(args) } as unknown as FastifyBaseLogger;
const audio = { userId: 7, fileId: 3, audioSize: 1000, log };

function recordingBuffer(
  store: (tokenHash: string, pending: PendingServed[]) => Promise<void> = async () => {},
) {
  const stored: [string, PendingServed[]][] = [];
  const buffer = createServedAudioBuffer(async (tokenHash, pending) => {
    stored.push([tokenHash, structuredClone(pending)]);
    await store(tokenHash, pending);
  });
  return { buffer, stored };
}

beforeEach(() => {
  vi.useFakeTimers();
  errors.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('createServedAudioBuffer', () => {
  it('merges a session’s ranges and stores them once, about a second after the first', async () => {
    const { buffer, stored } = recordingBuffer();
    buffer.add('a', { ...audio, start: 0, end: 99 });
    buffer.add('a', { ...audio, start: 100, end: 199 });
    buffer.add('a', { ...audio, fileId: 4, start: 0, end: 9 });
    await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS - 1);
    expect(stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stored).toEqual([
      [
        'a',
        [
          { userId: 7, fileId: 3, audioSize: 1000, ranges: [[0, 199]] },
          { userId: 7, fileId: 4, audioSize: 1000, ranges: [[0, 9]] },
        ],
      ],
    ]);
    await vi.advanceTimersByTimeAsync(10 * FLUSH_EVERY_MS);
    expect(stored).toHaveLength(1);
  });

  it('stores a session at once when its pending ranges grow long', async () => {
    const { buffer, stored } = recordingBuffer();
    for (let i = 0; i < FLUSH_AT_RANGES; i++) buffer.add('a', { ...audio, start: i * 10, end: i * 10 });
    buffer.add('b', { ...audio, start: 0, end: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(stored.map(([hash, pending]) => [hash, pending[0].ranges.length])).toEqual([
      ['a', FLUSH_AT_RANGES],
    ]);
  });

  it('stores everything at once when many sessions are pending', async () => {
    const { buffer, stored } = recordingBuffer();
    for (let i = 0; i < FLUSH_AT_SESSIONS; i++) buffer.add(`s${i}`, { ...audio, start: 0, end: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(stored).toHaveLength(FLUSH_AT_SESSIONS);
  });

  it('stores one session on demand, after a store of it already under way', async () => {
    let release = () => {};
    const { buffer, stored } = recordingBuffer((hash) =>
      hash === 'a' && stored.length === 1 ? new Promise((r) => (release = r)) : Promise.resolve(),
    );
    buffer.add('a', { ...audio, start: 0, end: 99 });
    const flushed = buffer.flush();
    buffer.add('a', { ...audio, start: 100, end: 199 });
    buffer.add('b', { ...audio, start: 0, end: 9 });
    let done = false;
    const session = buffer.storeSession('a').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    expect(stored).toHaveLength(1);
    release();
    await session;
    await flushed;
    expect(stored.map(([hash, pending]) => [hash, pending[0].ranges])).toEqual([
      ['a', [[0, 99]]],
      ['a', [[100, 199]]],
    ]);
    // Added after that flush began: the timer stores it.
    await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS);
    expect(stored.at(-1)).toEqual(['b', [{ userId: 7, fileId: 3, audioSize: 1000, ranges: [[0, 9]] }]]);
  });

  it('logs a failed store, drops its ranges and stores the other sessions', async () => {
    const { buffer, stored } = recordingBuffer(async (hash) => {
      if (hash === 'a') throw new Error('database gone');
    });
    buffer.add('a', { ...audio, start: 0, end: 99 });
    buffer.add('b', { ...audio, start: 0, end: 99 });
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(stored.map(([hash]) => hash)).toEqual(['a', 'b']);
    expect(errors).toEqual([[{ err: new Error('database gone') }, 'recording served audio failed']]);
    await buffer.flush();
    expect(stored).toHaveLength(2);
  });
});
