import { describe, expect, it } from 'vitest';
import {
  emptyIndex,
  findKept,
  formatBytes,
  type KeptItem,
  keysInUse,
  OFFLINE_INDEX_KEY,
  readIndex,
  withItem,
  withoutItem,
  writeIndex,
} from './offline-index.ts';

const item = (overrides: Partial<KeptItem>): KeptItem => ({
  kind: 'playlist',
  uuid: 'p-1',
  name: 'First Steps',
  media: [],
  api: [],
  bytes: 0,
  keptAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 KB'],
    [12_345_678, '12.3 MB'],
    [99_949_999, '99.9 MB'],
    [123_456_789, '123 MB'],
    [999_499_999, '999 MB'],
    [999_500_000, '1.0 GB'],
    [2_500_000_000, '2.5 GB'],
    [5_000_000_000_000_000, '5000 TB'],
  ])('%d bytes read as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('the offline index', () => {
  it('keeps one entry per playlist or plan: keeping again replaces it', () => {
    const first = withItem(emptyIndex, item({ media: ['/media/audio/a.mp3'], bytes: 10 }));
    const again = withItem(first, item({ media: ['/media/audio/b.mp3'], bytes: 20 }));
    expect(again.items).toEqual([item({ media: ['/media/audio/b.mp3'], bytes: 20 })]);
    const plan = withItem(again, item({ kind: 'plan', uuid: 'p-1', name: 'Plan' }));
    expect(plan.items).toHaveLength(2);
    expect(findKept(plan, { kind: 'plan', uuid: 'p-1' })?.name).toBe('Plan');
    expect(findKept(plan, { kind: 'playlist', uuid: 'p-2' })).toBeUndefined();
  });

  it('frees a file only when no kept item needs it any more', () => {
    const shared = '/media/audio/shared.mp3';
    const index = withItem(
      withItem(
        emptyIndex,
        item({ uuid: 'a', media: [shared, '/media/audio/a.mp3'], api: ['/api/playlists?uuid=a'] }),
      ),
      item({ uuid: 'b', media: [shared], api: ['/api/playlists?uuid=b'] }),
    );
    const afterA = withoutItem(index, { kind: 'playlist', uuid: 'a' });
    expect([...keysInUse(afterA)].sort()).toEqual(['/api/playlists?uuid=b', shared]);
    expect([...keysInUse(withoutItem(afterA, { kind: 'playlist', uuid: 'b' }))]).toEqual([]);
  });

  it('reads back what it wrote, and an unreadable index as empty', () => {
    const index = withItem(emptyIndex, item({ media: ['/media/audio/a.mp3'], bytes: 5 }));
    writeIndex(localStorage, index);
    expect(readIndex(localStorage)).toEqual(index);
    localStorage.setItem(OFFLINE_INDEX_KEY, '{not json');
    expect(readIndex(localStorage)).toEqual(emptyIndex);
    localStorage.setItem(OFFLINE_INDEX_KEY, JSON.stringify({ items: [{ kind: 'album' }] }));
    expect(readIndex(localStorage)).toEqual(emptyIndex);
  });
});
