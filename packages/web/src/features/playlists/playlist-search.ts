import {
  PAGE_SIZES,
  type PlaylistSortId,
  parseIdList,
  parsePage,
  playlistSortOption,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage } from '@mesmer/shared/domain/pagination';
import type { PlaylistsParams } from '../../api/playlists.ts';
import { withParams } from '../../lib/search-params.ts';

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
  return withParams(params, {
    [`${prefix}q`]: s.q,
    [`${prefix}sort`]: s.sort === playlistSortOption(null).id ? null : s.sort,
    [`${prefix}levels`]: s.levels.join(','),
    [`${prefix}files`]: s.files.join(','),
    [`${prefix}page`]: s.page > 1 ? String(s.page) : null,
    [`${prefix}filters`]: s.filtersOpen ? '1' : null,
  });
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
