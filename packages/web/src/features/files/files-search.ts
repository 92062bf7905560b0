import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import {
  type DurationFilterId,
  durationFilter,
  type FileSortId,
  type FilesTab,
  fileSortOption,
  fileTypesForTab,
  PAGE_SIZES,
  parseIdList,
  parsePage,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage } from '@mesmer/shared/domain/pagination';
import type { FilesParams } from '../../api/files.ts';
import { changePagedSearch } from '../../lib/search-params.ts';

/** Everything the Files page shows, as kept in the URL so a search can be shared and survives reload. */
export interface FilesSearch {
  tab: FilesTab;
  q: string;
  sort: FileSortId;
  duration: DurationFilterId | null;
  types: number[];
  creators: number[];
  showLocked: boolean;
  showNonHaptics: boolean;
  page: number;
  filtersOpen: boolean;
}

/** Reads the page's state from its URL; `showLockedByDefault` follows the viewer's hideLockedFiles. */
export function readFilesSearch(params: URLSearchParams, showLockedByDefault: boolean): FilesSearch {
  const flag = (key: string, fallback: boolean) => {
    const v = params.get(key);
    return v === null ? fallback : v === '1';
  };
  return {
    tab: params.get('tab') === 'music' ? 'music' : 'hypnotic',
    q: params.get('q') ?? '',
    sort: fileSortOption(params.get('sort')).id,
    duration: durationFilter(params.get('duration'))?.id ?? null,
    types: parseIdList(params.get('types')),
    creators: parseIdList(params.get('creators')),
    showLocked: flag('locked', showLockedByDefault),
    showNonHaptics: flag('haptics', true),
    page: parsePage(params.get('page')),
    filtersOpen: params.get('filters') === '1',
  };
}

/** Writes the state back, leaving defaults out of the URL. */
export function writeFilesSearch(s: FilesSearch, showLockedByDefault: boolean): URLSearchParams {
  const p = new URLSearchParams();
  if (s.tab !== 'hypnotic') p.set('tab', s.tab);
  if (s.q) p.set('q', s.q);
  if (s.sort !== fileSortOption(null).id) p.set('sort', s.sort);
  if (s.duration) p.set('duration', s.duration);
  if (s.types.length) p.set('types', s.types.join(','));
  if (s.creators.length) p.set('creators', s.creators.join(','));
  if (s.showLocked !== showLockedByDefault) p.set('locked', s.showLocked ? '1' : '0');
  if (!s.showNonHaptics) p.set('haptics', '0');
  if (s.page > 1) p.set('page', String(s.page));
  if (s.filtersOpen) p.set('filters', '1');
  return p;
}

/**
 * The state after a change. Any change to what is searched for starts again at page 1
 * (the spec names sort, duration, show-locked, show-non-haptics and tab); switching
 * tab clears the selected file types. Only a page change keeps the page.
 */
export function changeFilesSearch(s: FilesSearch, patch: Partial<FilesSearch>): FilesSearch {
  const next = changePagedSearch(s, patch);
  if (patch.tab !== undefined && patch.tab !== s.tab) next.types = [];
  return next;
}

/** The GET /api/files query for the state: the chosen file types, else every type of the tab. */
export function filesSearchQuery(s: FilesSearch): FilesParams {
  const sort = fileSortOption(s.sort);
  const duration = durationFilter(s.duration);
  const tabTypes = fileTypesForTab(FILE_TYPES, s.tab).map((t) => t.id);
  return {
    pageSize: PAGE_SIZES.files,
    pageOffset: offsetOfPage(s.page, PAGE_SIZES.files),
    searchQuery: s.q || undefined,
    sortType: sort.sortType,
    sortDirection: sort.sortDirection,
    minDuration: duration?.minDuration,
    maxDuration: duration?.maxDuration,
    fileTypes: s.types.length ? s.types : tabTypes,
    creatorIds: s.creators.length ? s.creators : undefined,
    showLocked: s.showLocked,
    showNonHaptics: s.showNonHaptics,
  };
}
