/**
 * The list of what this browser keeps offline: each kept playlist or plan with the cache keys of
 * its media and API answers and its size. Kept in localStorage; the files are in Cache Storage. A
 * file two kept items share is stored once and only goes when neither keeps it.
 */
const OFFLINE_KINDS = ['playlist', 'plan'] as const;
export type OfflineKind = (typeof OFFLINE_KINDS)[number];

/** A playlist or plan that can be kept offline. */
export interface OfflineTarget {
  kind: OfflineKind;
  uuid: string;
  name: string;
}

export interface KeptItem extends OfflineTarget {
  /** Cache keys of its media files (paths) and API answers (paths with sorted queries). */
  media: string[];
  api: string[];
  /** Bytes of its media files. */
  bytes: number;
  keptAt: string;
}

export interface OfflineIndex {
  items: KeptItem[];
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((s) => typeof s === 'string');

/**
 * Whether `value` is a kept item as withItem wrote it. Checked by hand, not with zod: this is the app's
 * own record, and a playlist page reads it on its first load (decision 038).
 */
function isKeptItem(value: unknown): value is KeptItem {
  const item = value as Partial<KeptItem> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    OFFLINE_KINDS.includes(item.kind as OfflineKind) &&
    typeof item.uuid === 'string' &&
    typeof item.name === 'string' &&
    isStrings(item.media) &&
    isStrings(item.api) &&
    Number.isInteger(item.bytes) &&
    (item.bytes as number) >= 0 &&
    typeof item.keptAt === 'string'
  );
}

export const OFFLINE_INDEX_KEY = 'mesmer-offline-index';

export const emptyIndex: OfflineIndex = { items: [] };

/** The index kept in `storage`; an unreadable one reads as empty (the next sweep clears its files). */
export function readIndex(storage: Storage): OfflineIndex {
  try {
    const stored = JSON.parse(storage.getItem(OFFLINE_INDEX_KEY) ?? 'null') as { items?: unknown } | null;
    const items = stored?.items;
    return Array.isArray(items) && items.every(isKeptItem) ? { items } : emptyIndex;
  } catch {
    return emptyIndex;
  }
}

export function writeIndex(storage: Storage, index: OfflineIndex): void {
  storage.setItem(OFFLINE_INDEX_KEY, JSON.stringify(index));
}

const sameTarget = (item: KeptItem, target: Pick<OfflineTarget, 'kind' | 'uuid'>) =>
  item.kind === target.kind && item.uuid === target.uuid;

export function findKept(index: OfflineIndex, target: Pick<OfflineTarget, 'kind' | 'uuid'>) {
  return index.items.find((item) => sameTarget(item, target));
}

/** The index with `item` kept (replacing an earlier keep of the same playlist or plan). */
export function withItem(index: OfflineIndex, item: KeptItem): OfflineIndex {
  return { items: [...index.items.filter((i) => !sameTarget(i, item)), item] };
}

export function withoutItem(index: OfflineIndex, target: Pick<OfflineTarget, 'kind' | 'uuid'>): OfflineIndex {
  return { items: index.items.filter((i) => !sameTarget(i, target)) };
}

/** Every cache key some kept item needs; anything else in the offline cache can go. */
export function keysInUse(index: OfflineIndex): Set<string> {
  return new Set(index.items.flatMap((i) => [...i.media, ...i.api]));
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** A byte count as people read it: "850 bytes", "12.3 MB", "123 MB" (1 KB = 1000 bytes, like file managers). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1000;
  let unit = 0;
  // Past 999.5 the rounded figure would read "1000": the next unit reads better.
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 99.95 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
