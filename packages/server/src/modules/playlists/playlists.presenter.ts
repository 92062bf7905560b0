import type { AudioFile } from '@mesmer/shared/api/files';
import type { Playlist, PlaylistFile, PlaylistUserInfo } from '@mesmer/shared/api/playlists';
import { likeRatio } from '@mesmer/shared/domain/rating';
import type { PlaylistRow, ShownEntry, TriggerRef } from './playlists.repo.ts';

/** What the totals need of an entry the viewer may see. */
export type EntryFacts = Pick<
  ShownEntry,
  'duration' | 'disabled' | 'hasHaptics' | 'hasTiers' | 'warnings'
> & {
  triggers: TriggerRef[];
};

/** Totals a playlist shows, over the entries the viewer may see. */
function summarise(entries: EntryFacts[]) {
  const withHaptics = entries.filter((e) => e.hasHaptics).length;
  const triggers = new Map<number, { id: number; uuid: string; name: string }>();
  for (const entry of entries) {
    for (const t of entry.triggers) triggers.set(t.id, { id: t.id, uuid: t.uuid, name: t.name });
  }
  return {
    fileCount: entries.length,
    totalDuration: entries.reduce((sum, e) => sum + (e.disabled ? 0 : e.duration), 0),
    hapticsPercent: entries.length === 0 ? 0 : Math.floor((withHaptics * 100) / entries.length),
    hasPatreonFiles: entries.some((e) => e.hasTiers),
    warnings: [...new Set(entries.flatMap((e) => e.warnings))],
    triggers: [...triggers.values()],
  };
}

/** The totals' facts of a presented file. */
export function entryFacts(file: AudioFile, disabled: boolean): EntryFacts {
  return {
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
export function toPlaylist(
  row: PlaylistRow,
  shown: EntryFacts[],
  fileIds: number[],
  files: PlaylistFile[],
): Playlist {
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
    fileIds,
    files,
    likes: row.likes,
    dislikes: row.dislikes,
    favorites: row.favorites,
    ...summarise(shown),
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
