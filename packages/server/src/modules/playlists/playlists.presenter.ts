import type { AudioFile } from '@mesmer/shared/api/files';
import type { Playlist, PlaylistFile, PlaylistUserInfo } from '@mesmer/shared/api/playlists';
import { likeRatio } from '@mesmer/shared/domain/rating';
import type { PlaylistRow, PublicSummary, ShownEntry, TriggerRef } from './playlists.repo.ts';

/** What the totals need of an entry the viewer may see. */
export type EntryFacts = Pick<
  ShownEntry,
  'fileId' | 'duration' | 'disabled' | 'hasHaptics' | 'hasTiers' | 'warnings'
> & {
  /** Ordered by name. */
  triggers: TriggerRef[];
};

/**
 * A playlist's entries that a viewer may see, summed up: per request from the entries
 * (summariseEntries), or as stored for the shared audience (storedSummary).
 */
export interface EntriesSummary {
  fileIds: number[];
  /** Of the enabled entries. */
  totalDuration: number;
  withHaptics: number;
  hasTiers: boolean;
  /** Distinct, in the order first met. */
  warnings: string[];
  /** Distinct, in the order first met: by entry, then by name. */
  triggers: TriggerRef[];
}

/**
 * The per-request summary. Its stored twin for public entries is summarise_public_entries
 * (migration 0017): keep the two alike; public-summaries.test.ts compares them.
 */
export function summariseEntries(entries: EntryFacts[]): EntriesSummary {
  const triggers = new Map<number, TriggerRef>();
  for (const entry of entries) {
    for (const t of entry.triggers) triggers.set(t.id, { id: t.id, uuid: t.uuid, name: t.name });
  }
  return {
    fileIds: entries.map((e) => e.fileId),
    totalDuration: entries.reduce((sum, e) => sum + (e.disabled ? 0 : e.duration), 0),
    withHaptics: entries.filter((e) => e.hasHaptics).length,
    hasTiers: entries.some((e) => e.hasTiers),
    warnings: [...new Set(entries.flatMap((e) => e.warnings))],
    triggers: [...triggers.values()],
  };
}

/** Every trigger by id, with its place in the order by name. */
export type TriggersByName = ReadonlyMap<number, { trigger: TriggerRef; rank: number }>;

/** `byName`: every trigger ordered by name. */
export function triggersByNameOf(byName: TriggerRef[]): TriggersByName {
  return new Map(
    byName.map((t, rank) => [t.id, { trigger: { id: t.id, uuid: t.uuid, name: t.name }, rank }]),
  );
}

/** The stored summary of the public entries, its triggers named from `triggers`. */
export function storedSummary(stored: PublicSummary, allTriggers: TriggersByName): EntriesSummary {
  // Plain loops: flatMap and object spreads here cost a list page 0.3 ms (20 times this).
  const named: { trigger: TriggerRef; firstEntry: number; rank: number }[] = [];
  const ids = stored.publicTriggerIds;
  for (let i = 0; i < ids.length; i++) {
    const found = allTriggers.get(ids[i]);
    if (found)
      named.push({
        trigger: found.trigger,
        firstEntry: stored.publicTriggerFirstEntries[i],
        rank: found.rank,
      });
  }
  // By first entry, by name within one.
  named.sort((a, b) => a.firstEntry - b.firstEntry || a.rank - b.rank);
  const triggers = new Array<TriggerRef>(named.length);
  for (let i = 0; i < named.length; i++) triggers[i] = named[i].trigger;
  return {
    fileIds: stored.publicFileIds,
    totalDuration: stored.publicTotalDuration,
    withHaptics: stored.publicWithHaptics,
    hasTiers: stored.publicHasTiers,
    warnings: stored.publicWarnings,
    triggers,
  };
}

/** The totals' facts of a presented file. */
export function entryFacts(file: AudioFile, disabled: boolean): EntryFacts {
  return {
    fileId: file.id,
    duration: file.duration,
    disabled,
    hasHaptics: file.hasHaptics,
    hasTiers: file.patreonTiers.length > 0,
    warnings: file.warnings.map((w) => w.text),
    triggers: file.triggers,
  };
}

/**
 * Exactly what goes out of a playlist: totals over the entries the viewer may see (`shown`),
 * their file ids, and the files themselves unless the list asked for `simple` playlists.
 */
export function toPlaylist(row: PlaylistRow, shown: EntriesSummary, files: PlaylistFile[]): Playlist {
  const fileCount = shown.fileIds.length;
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    expLevel: row.expLevel,
    isPublic: row.isPublic,
    isCore: row.isCore,
    creator: { id: row.creatorId, username: row.creatorUsername },
    dateCreated: row.dateCreated.toISOString(),
    fileIds: shown.fileIds,
    files,
    likes: row.likes,
    dislikes: row.dislikes,
    favorites: row.favorites,
    fileCount,
    totalDuration: shown.totalDuration,
    hapticsPercent: fileCount === 0 ? 0 : Math.floor((shown.withHaptics * 100) / fileCount),
    hasPatreonFiles: shown.hasTiers,
    warnings: shown.warnings,
    triggers: shown.triggers,
  };
}

/** The viewer's own rating of a playlist with its counts. */
export function toPlaylistUserInfo(
  row: PlaylistRow,
  rating: { liked: boolean; disliked: boolean; favorite: boolean },
): PlaylistUserInfo {
  return {
    id: row.id,
    isLiked: rating.liked,
    isDisliked: rating.disliked,
    isFavorite: rating.favorite,
    likes: row.likes,
    dislikes: row.dislikes,
    likeRatio: likeRatio(row.likes, row.dislikes),
  };
}
