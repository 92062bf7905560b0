import { describe, expect, it } from 'vitest';
import { changePagedSearch } from '../../lib/search-params.ts';
import {
  type PlaylistSearch,
  playlistSearchQuery,
  readPlaylistSearch,
  writePlaylistSearch,
} from './playlist-search.ts';

const empty = readPlaylistSearch(new URLSearchParams(), 's');

describe('playlist section search in the URL', () => {
  it('defaults to the newest first, page 1, no filters', () => {
    expect(empty).toEqual({
      q: '',
      sort: 'datecreated-desc',
      levels: [],
      files: [],
      page: 1,
      filtersOpen: false,
    });
  });

  it('keeps each section under its own prefix and leaves defaults out', () => {
    const s: PlaylistSearch = {
      q: 'calm',
      sort: 'likes-desc',
      levels: [1, 3],
      files: [8],
      page: 2,
      filtersOpen: true,
    };
    const params = writePlaylistSearch(new URLSearchParams('cq=other'), 's', s);
    expect(params.get('cq')).toBe('other');
    expect(readPlaylistSearch(params, 's')).toEqual(s);
    expect(writePlaylistSearch(new URLSearchParams(), 's', empty).toString()).toBe('');
  });

  it('drops levels outside 1-4', () => {
    expect(readPlaylistSearch(new URLSearchParams('slevels=0,2,5'), 's').levels).toEqual([2]);
  });

  it('starts again at page 1 on a new search', () => {
    const onPage3 = { ...empty, page: 3 };
    expect(changePagedSearch(onPage3, { q: 'x' }).page).toBe(1);
    expect(changePagedSearch(onPage3, { sort: 'name-asc' }).page).toBe(1);
    expect(changePagedSearch(onPage3, { levels: [2] }).page).toBe(1);
    expect(changePagedSearch(onPage3, { page: 5 }).page).toBe(5);
    expect(changePagedSearch(onPage3, { filtersOpen: true }).page).toBe(3);
  });

  it('asks for 12 simple playlists within the section scope', () => {
    expect(
      playlistSearchQuery(
        { q: 'calm', sort: 'name-asc', levels: [2], files: [4, 9], page: 2, filtersOpen: false },
        { official: true, isPublic: true },
      ),
    ).toEqual({
      official: true,
      isPublic: true,
      searchQuery: 'calm',
      sort: 'name',
      sortDir: 'asc',
      expLevels: [2],
      includeFiles: [4, 9],
      simple: true,
      pageSize: 12,
      pageOffset: 12,
    });
  });
});
