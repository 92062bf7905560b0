import type { AudioFile } from '@mesmer/shared/api/files';
import { isFileLocked, type LockViewer } from '@mesmer/shared/domain/locks';
import type { FileRow } from './files.repo.ts';

/** A signed URL of a stored media key for one file, or null without a key. */
export type MediaUrl = (key: string | null, fileId: number) => string | null;

/**
 * Exactly what goes out of a file. Locks and media URLs depend on the viewer: a file locked
 * for them goes out without URLs; everything else comes from the row.
 */
export function toAudioFile(row: FileRow, viewer: LockViewer, mediaUrl: MediaUrl): AudioFile {
  const isLocked = isFileLocked(
    { uploaderId: row.uploaderId, authorId: row.authorId, requiredTierIds: row.tiers.map((t) => t.id) },
    viewer,
  );
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    triggers: row.triggers,
    patreonTiers: row.tiers,
    fileType: row.fileType,
    tags: row.tags,
    trackNumber: row.trackNumber,
    releaseDate: row.releaseDate.toISOString(),
    isPublic: row.isPublic,
    plays: row.plays,
    duration: row.duration,
    audioURL: isLocked ? null : mediaUrl(row.audioKey, row.id),
    audioType: row.audioType,
    scriptURL: isLocked ? null : mediaUrl(row.scriptKey, row.id),
    hapticsURL: isLocked ? null : mediaUrl(row.hapticsKey, row.id),
    hasHaptics: row.hapticsKey !== null,
    isLocked,
    warnings: row.warnings.map((text) => ({ text })),
    author: {
      id: row.authorId,
      username: row.authorUsername,
      patreonName: row.authorPatreonName,
    },
    uploaderId: row.uploaderId,
    userUploaded: row.userUploaded,
  };
}
