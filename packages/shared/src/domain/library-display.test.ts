import { describe, expect, it } from 'vitest';
import { FILE_TYPES } from './file-types.ts';
import {
  addToPlaylistPageSize,
  DURATION_FILTERS,
  durationFilter,
  EXPERIENCE_LEVELS,
  enabledDuration,
  expLevelName,
  FILE_SORT_OPTIONS,
  fileSortOption,
  fileTypesForTab,
  firstEnabledIndex,
  formatPlays,
  initialFileNotice,
  isOwnPrivateFile,
  moveItem,
  musicTab,
  PAGE_SIZES,
  PLAYLIST_SORT_OPTIONS,
  parseIdList,
  parsePage,
  playlistSortOption,
  requiredTier,
  trackNumberLabel,
} from './library-display.ts';

describe('page sizes', () => {
  it('match the spec', () => {
    expect(PAGE_SIZES).toEqual({
      files: 20,
      playlists: 12,
      corePlaylists: 12,
      triggerFiles: 16,
      userPlaylists: 8,
      editorFileSearch: 8,
      includeFilesSearch: 12,
    });
  });

  it.each([
    [1000, 10],
    [800, 7],
    [370, 1],
    [369, 1],
    [200, 1],
  ])('the add-to-playlist popup fits floor((%i - 300) / 70), at least 1 → %i', (h, size) => {
    expect(addToPlaylistPageSize(h)).toBe(size);
  });
});

describe('trackNumberLabel', () => {
  it.each([
    [0, '00'],
    [1, '01'],
    [9, '09'],
    [10, '10'],
    [123, '123'],
  ])('%i reads %s', (n, text) => {
    expect(trackNumberLabel(n)).toBe(text);
  });
});

describe('isOwnPrivateFile', () => {
  const file = { isPublic: false, userUploaded: false, author: { id: 3 } };
  it('is the viewer’s own non-public, non-user-uploaded file', () => {
    expect(isOwnPrivateFile(file, 3)).toBe(true);
  });
  it('is not for public files, user uploads, other authors or signed-out viewers', () => {
    expect(isOwnPrivateFile({ ...file, isPublic: true }, 3)).toBe(false);
    expect(isOwnPrivateFile({ ...file, userUploaded: true }, 3)).toBe(false);
    expect(isOwnPrivateFile(file, 4)).toBe(false);
    expect(isOwnPrivateFile(file, null)).toBe(false);
  });
});

describe('formatPlays', () => {
  it.each([
    [0, '0'],
    [9999, '9999'],
    [10_000, '10,000'],
    [1_234_567, '1,234,567'],
  ])('%i reads %s', (n, text) => {
    expect(formatPlays(n)).toBe(text);
  });
});

describe('experience levels', () => {
  it('are the four levels in order, 1-based', () => {
    expect(EXPERIENCE_LEVELS).toEqual(['Beginner', 'Intermediate', 'Advanced', 'Expert']);
    expect(expLevelName(1)).toBe('Beginner');
    expect(expLevelName(4)).toBe('Expert');
    expect(expLevelName(0)).toBe('');
    expect(expLevelName(5)).toBe('');
  });
});

describe('requiredTier', () => {
  it('is the lowest-ranked tier, or null', () => {
    const tiers = [
      { name: 'Gold', rank: 3 },
      { name: 'Bronze', rank: 1 },
      { name: 'Silver', rank: 2 },
    ];
    expect(requiredTier(tiers)).toEqual({ name: 'Bronze', rank: 1 });
    expect(requiredTier([])).toBeNull();
  });
});

describe('initialFileNotice', () => {
  it('opens the paid-tier notice first when locked, else warnings, else description', () => {
    expect(initialFileNotice({ isLocked: true, warnings: [{}] })).toBe('locked');
    expect(initialFileNotice({ isLocked: false, warnings: [{}] })).toBe('warnings');
    expect(initialFileNotice({ isLocked: false, warnings: [] })).toBe('description');
  });
});

describe('enabled files', () => {
  const files = [{ duration: 1000, disabled: true }, { duration: 2000 }, { duration: 4000, disabled: false }];
  it('firstEnabledIndex skips disabled files', () => {
    expect(firstEnabledIndex(files)).toBe(1);
    expect(firstEnabledIndex([{ disabled: true }])).toBe(-1);
    expect(firstEnabledIndex([])).toBe(-1);
  });
  it('enabledDuration sums only enabled files', () => {
    expect(enabledDuration(files)).toBe(6000);
  });
});

describe('moveItem', () => {
  it('moves one item and keeps the rest in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
});

describe('file sort options', () => {
  it('are the eight of the spec, Date newest first by default', () => {
    expect(FILE_SORT_OPTIONS.map((o) => o.label)).toEqual([
      'Date (Newest)',
      'Date (Oldest)',
      'Name (A-Z)',
      'Name (Z-A)',
      'Duration (Shortest)',
      'Duration (Longest)',
      'Plays (Most played)',
      'Plays (Least played)',
    ]);
    expect(fileSortOption(null)).toMatchObject({ sortType: 'date', sortDirection: 'desc' });
    expect(fileSortOption('bogus').id).toBe('date-desc');
    expect(fileSortOption('playcount-asc')).toMatchObject({ sortType: 'playcount', sortDirection: 'asc' });
  });
});

describe('duration filters', () => {
  it('use the 15/30/45 minute bounds in ms', () => {
    expect(DURATION_FILTERS.map((d) => [d.id, d.minDuration, d.maxDuration])).toEqual([
      ['short', undefined, 900_000],
      ['medium', 900_000, 1_800_000],
      ['long', 1_800_000, 2_700_000],
      ['verylong', 2_700_000, undefined],
    ]);
    expect(durationFilter('long')?.minDuration).toBe(1_800_000);
    expect(durationFilter('x')).toBeNull();
    expect(durationFilter(null)).toBeNull();
  });
});

describe('fileTypesForTab', () => {
  it('offers music and AI music on the Music tab and the rest on Hypnotic', () => {
    expect(fileTypesForTab(FILE_TYPES, 'music').map((t) => t.id)).toEqual([7, 9]);
    expect(fileTypesForTab(FILE_TYPES, 'hypnotic').map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 8]);
  });
});

describe('playlist sort options', () => {
  it('cover date created, likes, favorites and name in both directions', () => {
    expect(new Set(PLAYLIST_SORT_OPTIONS.map((o) => o.sort))).toEqual(
      new Set(['datecreated', 'likes', 'favorites', 'name']),
    );
    expect(PLAYLIST_SORT_OPTIONS).toHaveLength(8);
    expect(playlistSortOption(undefined)).toMatchObject({ sort: 'datecreated', sortDir: 'desc' });
    expect(playlistSortOption('name-asc')).toMatchObject({ sort: 'name', sortDir: 'asc' });
  });
});

describe('musicTab', () => {
  it('maps all / nonai / ai to file types 7,9 / 7 / 9; unknown reads all', () => {
    expect(musicTab('all').fileTypes).toEqual([7, 9]);
    expect(musicTab('nonai').fileTypes).toEqual([7]);
    expect(musicTab('ai').fileTypes).toEqual([9]);
    expect(musicTab('zzz').id).toBe('all');
  });
});

describe('URL parameter readers', () => {
  it('parseIdList keeps positive whole numbers', () => {
    expect(parseIdList('1,2,x,-3,4.5,7')).toEqual([1, 2, 7]);
    expect(parseIdList('')).toEqual([]);
    expect(parseIdList(null)).toEqual([]);
  });
  it('parsePage is a whole number >= 1', () => {
    expect(parsePage('3')).toBe(3);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('-5')).toBe(1);
    expect(parsePage('2.5')).toBe(1);
    expect(parsePage('abc')).toBe(1);
    expect(parsePage(null)).toBe(1);
  });
});
