import { describe, expect, it } from 'vitest';
import {
  changeFilesSearch,
  type FilesSearch,
  filesSearchQuery,
  readFilesSearch,
  writeFilesSearch,
} from './files-search.ts';

const defaults = readFilesSearch(new URLSearchParams(), true);

describe('readFilesSearch', () => {
  it('starts on Hypnotic, Date newest, page 1, everything shown', () => {
    expect(defaults).toEqual({
      tab: 'hypnotic',
      q: '',
      sort: 'date-desc',
      duration: null,
      types: [],
      creators: [],
      showLocked: true,
      showNonHaptics: true,
      page: 1,
      filtersOpen: false,
    });
  });

  it('hides locked files by default for viewers who chose so', () => {
    expect(readFilesSearch(new URLSearchParams(), false).showLocked).toBe(false);
    expect(readFilesSearch(new URLSearchParams('locked=1'), false).showLocked).toBe(true);
  });

  it('reads every parameter and ignores unreadable ones', () => {
    const s = readFilesSearch(
      new URLSearchParams(
        'tab=music&q=rain&sort=name-asc&duration=long&types=7,x&creators=3&locked=0&haptics=0&page=3&filters=1',
      ),
      true,
    );
    expect(s).toEqual({
      tab: 'music',
      q: 'rain',
      sort: 'name-asc',
      duration: 'long',
      types: [7],
      creators: [3],
      showLocked: false,
      showNonHaptics: false,
      page: 3,
      filtersOpen: true,
    });
    expect(readFilesSearch(new URLSearchParams('tab=zzz&sort=zzz&duration=zzz&page=-1'), true)).toEqual(
      defaults,
    );
  });
});

describe('writeFilesSearch', () => {
  it('leaves defaults out and round-trips everything else', () => {
    expect(writeFilesSearch(defaults, true).toString()).toBe('');
    const s: FilesSearch = {
      ...defaults,
      tab: 'music',
      q: 'rain',
      sort: 'playcount-desc',
      duration: 'short',
      types: [7, 9],
      creators: [2, 5],
      showLocked: false,
      showNonHaptics: false,
      page: 2,
      filtersOpen: true,
    };
    expect(readFilesSearch(writeFilesSearch(s, true), true)).toEqual(s);
  });
});

describe('changeFilesSearch', () => {
  const onPage3 = { ...defaults, page: 3, types: [1, 2] };

  it.each([
    ['sort', { sort: 'name-asc' as const }],
    ['duration', { duration: 'short' as const }],
    ['show locked', { showLocked: false }],
    ['show non-haptics', { showNonHaptics: false }],
    ['tab', { tab: 'music' as const }],
    ['search', { q: 'rain' }],
  ])('changing %s goes back to page 1', (_name, patch) => {
    expect(changeFilesSearch(onPage3, patch).page).toBe(1);
  });

  it('keeps the page when only paging or opening the filters', () => {
    expect(changeFilesSearch(onPage3, { page: 4 }).page).toBe(4);
    expect(changeFilesSearch(onPage3, { filtersOpen: true }).page).toBe(3);
  });

  it('switching tab clears the selected file types; staying keeps them', () => {
    expect(changeFilesSearch(onPage3, { tab: 'music' }).types).toEqual([]);
    expect(changeFilesSearch(onPage3, { tab: 'hypnotic' }).types).toEqual([1, 2]);
  });
});

describe('filesSearchQuery', () => {
  it('asks for 20 files of the tab’s types, newest first', () => {
    expect(filesSearchQuery(defaults)).toEqual({
      pageSize: 20,
      pageOffset: 0,
      searchQuery: undefined,
      sortType: 'date',
      sortDirection: 'desc',
      minDuration: undefined,
      maxDuration: undefined,
      fileTypes: [1, 2, 3, 4, 5, 6, 8],
      creatorIds: undefined,
      showLocked: true,
      showNonHaptics: true,
    });
    expect(filesSearchQuery({ ...defaults, tab: 'music' }).fileTypes).toEqual([7, 9]);
  });

  it('maps page, sort, duration bucket, chosen types and creators', () => {
    expect(
      filesSearchQuery({
        ...defaults,
        q: 'deep',
        page: 3,
        sort: 'duration-asc',
        duration: 'medium',
        types: [2],
        creators: [4, 6],
        showLocked: false,
      }),
    ).toMatchObject({
      pageOffset: 40,
      searchQuery: 'deep',
      sortType: 'duration',
      sortDirection: 'asc',
      minDuration: 900_000,
      maxDuration: 1_800_000,
      fileTypes: [2],
      creatorIds: [4, 6],
      showLocked: false,
    });
  });
});
