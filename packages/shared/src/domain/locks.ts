/**
 * Membership locks. A file that needs tiers is locked for a viewer unless the viewer
 * is its uploader or author, may read every file, or holds an active membership in
 * one of the tiers or in a tier of equal or higher rank from the same creator.
 */

export interface TierRank {
  id: string;
  /** Tiers with the same creator name belong to one creator and compare by rank. */
  creatorName: string;
  /** 1 is the lowest. */
  rank: number;
}

/**
 * The tier ids a viewer's active memberships unlock: each held tier and every tier
 * of the same creator with an equal or lower rank.
 */
export function entitledTierIds(
  heldActiveTiers: readonly TierRank[],
  allTiers: readonly TierRank[],
): Set<string> {
  const out = new Set<string>();
  for (const held of heldActiveTiers) {
    out.add(held.id);
    for (const tier of allTiers) {
      if (tier.creatorName === held.creatorName && tier.rank <= held.rank) out.add(tier.id);
    }
  }
  return out;
}

export interface LockViewer {
  id: number | null;
  readsAllFiles: boolean;
  entitledTierIds: ReadonlySet<string>;
}

/**
 * Who may see a file at all: public files are for everyone; private ones only for
 * their uploader or author and for readers of all files.
 */
export function isFileVisible(
  file: { isPublic: boolean; uploaderId: number; authorId: number },
  viewer: Pick<LockViewer, 'id' | 'readsAllFiles'>,
): boolean {
  if (file.isPublic || viewer.readsAllFiles) return true;
  return viewer.id !== null && (viewer.id === file.uploaderId || viewer.id === file.authorId);
}

export interface LockableFile {
  requiredTierIds: readonly string[];
  uploaderId: number;
  authorId: number;
}

export function isFileLocked(file: LockableFile, viewer: LockViewer): boolean {
  if (file.requiredTierIds.length === 0 || viewer.readsAllFiles) return false;
  if (viewer.id !== null && (viewer.id === file.uploaderId || viewer.id === file.authorId)) return false;
  return !file.requiredTierIds.some((id) => viewer.entitledTierIds.has(id));
}
