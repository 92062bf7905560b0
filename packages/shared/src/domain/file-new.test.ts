import { describe, expect, it } from 'vitest';
import { isNewFile, isNewPlaylist, NEW_FILE_MS, NEW_PLAYLIST_MS } from './file-new.ts';

const now = Date.parse('2026-05-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('isNewFile', () => {
  it('is new right after release and until just before 5 days (432000000 ms)', () => {
    expect(NEW_FILE_MS).toBe(432_000_000);
    expect(isNewFile(ago(0), now)).toBe(true);
    expect(isNewFile(ago(NEW_FILE_MS - 1), now)).toBe(true);
  });

  it('is no longer new at 5 days and after', () => {
    expect(isNewFile(ago(NEW_FILE_MS), now)).toBe(false);
    expect(isNewFile(ago(30 * 86_400_000), now)).toBe(false);
  });

  it('is not new for a future release date or an unreadable date', () => {
    expect(isNewFile(ago(-60_000), now)).toBe(false);
    expect(isNewFile('not a date', now)).toBe(false);
  });
});

describe('isNewPlaylist', () => {
  it('is new for 14 days after creation', () => {
    expect(isNewPlaylist(ago(NEW_PLAYLIST_MS - 1), now)).toBe(true);
    expect(isNewPlaylist(ago(NEW_PLAYLIST_MS), now)).toBe(false);
  });
});
