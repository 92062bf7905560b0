import {
  PAGE_SIZES,
  type PlaylistSortId,
  parseIdList,
  parsePage,
  playlistSortOption,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage } from '@mesmer/shared/domain/pagination';
import type { PlaylistsParams } from './api.ts';

/** One Playlists page section's search, kept in the URL under the section's prefix. */
export interface PlaylistSearch {
  q: string;
  sort: PlaylistSortId;
  levels: number[];
  files: number[];
  page: number;
  filtersOpen: boolean;
}

export function readPlaylistSearch(params: URLSearchParams, prefix: string): PlaylistSearch {
  const get = (key: string) => params.get(`${prefix}${key}`);
  return {
    q: get('q') ?? '',
    sort: playlistSortOption(get('sort')).id,
    levels: parseIdList(get('levels')).filter((l) => l <= 4),
    files: parseIdList(get('files')),
    page: parsePage(get('page')),
    filtersOpen: get('filters') === '1',
  };
}

/** Writes the section's state into a copy of the URL parameters, leaving defaults out. */
export function writePlaylistSearch(
  params: URLSearchParams,
  prefix: string,
  s: PlaylistSearch,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) => {
    if (value) next.set(`${prefix}${key}`, value);
    else next.delete(`${prefix}${key}`);
  };
  put('q', s.q);
  put('sort', s.sort === playlistSortOption(null).id ? null : s.sort);
  put('levels', s.levels.join(','));
  put('files', s.files.join(','));
  put('page', s.page > 1 ? String(s.page) : null);
  put('filters', s.filtersOpen ? '1' : null);
  return next;
}

/** A new search starts at page 1; paging and opening the filters keep the page. */
export function changePlaylistSearch(s: PlaylistSearch, patch: Partial<PlaylistSearch>): PlaylistSearch {
  const next = { ...s, ...patch };
  const keepsPage = Object.keys(patch).every((k) => k === 'page' || k === 'filtersOpen');
  if (!keepsPage) next.page = patch.page ?? 1;
  return next;
}

export function playlistSearchQuery(s: PlaylistSearch, scope: PlaylistsParams): PlaylistsParams {
  const sort = playlistSortOption(s.sort);
  return {
    ...scope,
    searchQuery: s.q || undefined,
    sort: sort.sort,
    sortDir: sort.sortDir,
    expLevels: s.levels.length ? s.levels : undefined,
    includeFiles: s.files.length ? s.files : undefined,
    simple: true,
    pageSize: PAGE_SIZES.playlists,
    pageOffset: offsetOfPage(s.page, PAGE_SIZES.playlists),
  };
}
