/** How the content library lists read: numbers, levels, sort and filter options, page sizes. */
import { AI_MUSIC_TYPE_ID, isMusicType, MUSIC_TYPE_ID } from './file-types.ts';
import { withThousands } from './number-format.ts';

/** Page sizes from the spec. */
export const PAGE_SIZES = {
  files: 20,
  playlists: 12,
  corePlaylists: 12,
  triggerFiles: 16,
  userPlaylists: 8,
  editorFileSearch: 8,
  includeFilesSearch: 12,
} as const;

/** Home's core sessions: public core playlists that are no plan's day, easiest first, a page at `pageOffset`. */
export function coreSessionsQuery(pageOffset: number) {
  return {
    core: true,
    isPublic: true,
    series: false,
    sort: 'explevel',
    sortDir: 'asc',
    simple: true,
    pageSize: PAGE_SIZES.corePlaylists,
    pageOffset,
  } as const;
}

/** Debounce of the include-files search, in ms. */
export const FILE_SEARCH_DEBOUNCE_MS = 500;

/** Rows that fit the add-to-playlist popup: floor((window height - 300) / 70), at least one. */
export function addToPlaylistPageSize(windowHeight: number): number {
  return Math.max(1, Math.floor((windowHeight - 300) / 70));
}

/** Track numbers below 10 read with a leading zero ('01' ... '09', '10'). */
export function trackNumberLabel(n: number): string {
  return n < 10 && n >= 0 ? `0${n}` : String(n);
}

/**
 * The viewer's own hidden file: not public, authored by the viewer and not a user upload
 * (the list shows an eye-slash instead of the number).
 */
export function isOwnPrivateFile(
  file: { isPublic: boolean; userUploaded: boolean; author: { id: number } },
  viewerId: number | null | undefined,
): boolean {
  return viewerId != null && !file.isPublic && !file.userUploaded && file.author.id === viewerId;
}

/** Play counts of 10,000 or more read with thousands separators. */
export function formatPlays(plays: number): string {
  return plays >= 10_000 ? withThousands(plays) : String(plays);
}

export const EXPERIENCE_LEVELS = ['Beginner', 'Intermediate', 'Advanced', 'Expert'] as const;

/** Level 1-4 to its name; anything else reads empty. */
export function expLevelName(level: number): string {
  return EXPERIENCE_LEVELS[level - 1] ?? '';
}

/** The lowest tier (rank 1 is the lowest) that unlocks a file, or null when it needs none. */
export function requiredTier<T extends { rank: number }>(tiers: readonly T[]): T | null {
  let lowest: T | null = null;
  for (const t of tiers) if (!lowest || t.rank < lowest.rank) lowest = t;
  return lowest;
}

export type FileNotice = 'locked' | 'warnings' | 'description';

/** The notice accordion open first: the paid-tier notice if locked, else warnings if any, else description. */
export function initialFileNotice(file: { isLocked: boolean; warnings: readonly unknown[] }): FileNotice {
  if (file.isLocked) return 'locked';
  if (file.warnings.length > 0) return 'warnings';
  return 'description';
}

/** Index of the first file that is not disabled, or -1. */
export function firstEnabledIndex(files: readonly { disabled?: boolean }[]): number {
  return files.findIndex((f) => !f.disabled);
}

/** Total milliseconds of the enabled files. */
export function enabledDuration(files: readonly { duration: number; disabled?: boolean }[]): number {
  return files.reduce((sum, f) => (f.disabled ? sum : sum + f.duration), 0);
}

/** Moves one item from one index to another (drag reordering). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(to, 0, moved);
  return next;
}

export type FileSortDirection = 'asc' | 'desc';

/** The Files page sort options; the first is the default (Date, newest). */
export const FILE_SORT_OPTIONS = [
  { id: 'date-desc', label: 'Date (Newest)', sortType: 'date', sortDirection: 'desc' },
  { id: 'date-asc', label: 'Date (Oldest)', sortType: 'date', sortDirection: 'asc' },
  { id: 'name-asc', label: 'Name (A-Z)', sortType: 'name', sortDirection: 'asc' },
  { id: 'name-desc', label: 'Name (Z-A)', sortType: 'name', sortDirection: 'desc' },
  { id: 'duration-asc', label: 'Duration (Shortest)', sortType: 'duration', sortDirection: 'asc' },
  { id: 'duration-desc', label: 'Duration (Longest)', sortType: 'duration', sortDirection: 'desc' },
  { id: 'playcount-desc', label: 'Plays (Most played)', sortType: 'playcount', sortDirection: 'desc' },
  { id: 'playcount-asc', label: 'Plays (Least played)', sortType: 'playcount', sortDirection: 'asc' },
] as const;
export type FileSortId = (typeof FILE_SORT_OPTIONS)[number]['id'];

export function fileSortOption(id: string | null | undefined) {
  return FILE_SORT_OPTIONS.find((o) => o.id === id) ?? FILE_SORT_OPTIONS[0];
}

/** Duration buckets: Short < 15 min, Medium 15-30, Long 30-45, Very long > 45 (ms bounds). */
export const DURATION_FILTERS = [
  { id: 'short', label: 'Short (< 15 min)', minDuration: undefined, maxDuration: 900_000 },
  { id: 'medium', label: 'Medium (15-30 min)', minDuration: 900_000, maxDuration: 1_800_000 },
  { id: 'long', label: 'Long (30-45 min)', minDuration: 1_800_000, maxDuration: 2_700_000 },
  { id: 'verylong', label: 'Very long (> 45 min)', minDuration: 2_700_000, maxDuration: undefined },
] as const;
export type DurationFilterId = (typeof DURATION_FILTERS)[number]['id'];

export function durationFilter(id: string | null | undefined) {
  return DURATION_FILTERS.find((d) => d.id === id) ?? null;
}

export type FilesTab = 'hypnotic' | 'music';

/** The file types a Files tab offers: music and AI music on Music, every other type on Hypnotic. */
export function fileTypesForTab<T extends { id: number }>(types: readonly T[], tab: FilesTab): T[] {
  return types.filter((t) => isMusicType(t.id) === (tab === 'music'));
}

/** The Playlists page sort options (each sort in two directions). */
export const PLAYLIST_SORT_OPTIONS = [
  { id: 'datecreated-desc', label: 'Date created (Newest)', sort: 'datecreated', sortDir: 'desc' },
  { id: 'datecreated-asc', label: 'Date created (Oldest)', sort: 'datecreated', sortDir: 'asc' },
  { id: 'likes-desc', label: 'Likes (Most)', sort: 'likes', sortDir: 'desc' },
  { id: 'likes-asc', label: 'Likes (Fewest)', sort: 'likes', sortDir: 'asc' },
  { id: 'favorites-desc', label: 'Favorites (Most)', sort: 'favorites', sortDir: 'desc' },
  { id: 'favorites-asc', label: 'Favorites (Fewest)', sort: 'favorites', sortDir: 'asc' },
  { id: 'name-asc', label: 'Name (A-Z)', sort: 'name', sortDir: 'asc' },
  { id: 'name-desc', label: 'Name (Z-A)', sort: 'name', sortDir: 'desc' },
] as const;
export type PlaylistSortId = (typeof PLAYLIST_SORT_OPTIONS)[number]['id'];

export function playlistSortOption(id: string | null | undefined) {
  return PLAYLIST_SORT_OPTIONS.find((o) => o.id === id) ?? PLAYLIST_SORT_OPTIONS[0];
}

/** Music page tabs and the file types each one lists. */
export const MUSIC_TABS = [
  { id: 'all', label: 'All', fileTypes: [MUSIC_TYPE_ID, AI_MUSIC_TYPE_ID] },
  { id: 'nonai', label: 'Non-AI', fileTypes: [MUSIC_TYPE_ID] },
  { id: 'ai', label: 'AI', fileTypes: [AI_MUSIC_TYPE_ID] },
] as const;
export type MusicTab = (typeof MUSIC_TABS)[number]['id'];

export function musicTab(id: string | null | undefined) {
  return MUSIC_TABS.find((t) => t.id === id) ?? MUSIC_TABS[0];
}

/** Comma-joined positive ids from a URL parameter; anything unreadable is dropped. */
export function parseIdList(value: string | null | undefined): number[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => Number(s))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** A 1-based page number read from a URL parameter: a whole number >= 1, else 1. */
export function parsePage(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 ? n : 1;
}
