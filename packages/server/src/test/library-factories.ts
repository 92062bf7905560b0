import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  files,
  fileTags,
  fileTiers,
  fileTriggers,
  membershipTiers,
  playlistFiles,
  playlistRatings,
  playlists,
  series,
  seriesPlaylists,
  tags,
  triggers,
  userMemberships,
  userSeries,
  users,
} from '../db/schema/index.ts';

/**
 * Library test data, inserted directly (users come from factories.ts):
 *
 *   const file = await createFile(db, { name: 'Alpha', authorId: owner.id, haptics: true });
 *   const list = await createPlaylist(db, { name: 'Mine', creatorId: alice.id, fileIds: [file.id] });
 */

let made = 0;
const next = () => ++made;

export async function createTier(
  db: Db,
  tier: {
    id?: string;
    creatorName?: string;
    title?: string;
    rank?: number;
    creatorUserId?: number | null;
  } = {},
) {
  const row = {
    id: tier.id ?? `tier-${next()}`,
    creatorName: tier.creatorName ?? 'Creator',
    title: tier.title ?? 'Supporter',
    rank: tier.rank ?? 1,
    creatorUserId: tier.creatorUserId ?? null,
  };
  await db.insert(membershipTiers).values(row);
  return row;
}

export async function grantMembership(db: Db, userId: number, tierId: string, active = true) {
  await db.insert(userMemberships).values({ userId, tierId, active, cancelled: !active });
}

export async function createTrigger(
  db: Db,
  t: { name?: string; description?: string; creatorId: number | null; weight?: number; pending?: boolean },
) {
  const [row] = await db
    .insert(triggers)
    .values({ ...t, name: t.name ?? `Trigger ${next()}`, description: t.description ?? '' })
    .returning();
  return row;
}

export async function createTag(db: Db, name = `tag-${next()}`) {
  const [row] = await db.insert(tags).values({ name }).returning();
  return row;
}

export interface FileOverrides {
  name?: string;
  description?: string;
  authorId: number;
  uploaderId?: number;
  fileType?: number;
  duration?: number;
  plays?: number;
  releaseDate?: Date;
  isPublic?: boolean;
  userUploaded?: boolean;
  trackNumber?: number | null;
  haptics?: boolean;
  script?: boolean;
  warnings?: string[];
  tierIds?: string[];
  triggers?: { id: number; trains?: boolean }[];
  tagIds?: number[];
}

/** A file row with its links; media keys point at `audio/<uuid>.wav` etc. (nothing is stored). */
export async function createFile(db: Db, f: FileOverrides) {
  const uuid = randomUUID();
  const [row] = await db
    .insert(files)
    .values({
      uuid,
      name: f.name ?? `File ${next()}`,
      description: f.description ?? '',
      fileType: f.fileType ?? 2,
      duration: f.duration ?? 60_000,
      plays: f.plays ?? 0,
      releaseDate: f.releaseDate ?? new Date('2026-05-01T00:00:00Z'),
      isPublic: f.isPublic ?? true,
      userUploaded: f.userUploaded ?? false,
      trackNumber: f.trackNumber ?? null,
      audioKey: `audio/${uuid}.wav`,
      audioType: 'audio/wav',
      hapticsKey: f.haptics ? `haptics/${uuid}.json` : null,
      scriptKey: f.script ? `scripts/${uuid}.txt` : null,
      warnings: f.warnings ?? [],
      authorId: f.authorId,
      uploaderId: f.uploaderId ?? f.authorId,
    })
    .returning();
  if (f.tierIds?.length)
    await db.insert(fileTiers).values(f.tierIds.map((tierId) => ({ fileId: row.id, tierId })));
  if (f.triggers?.length) {
    await db
      .insert(fileTriggers)
      .values(f.triggers.map((t) => ({ fileId: row.id, triggerId: t.id, trains: t.trains ?? false })));
  }
  if (f.tagIds?.length)
    await db.insert(fileTags).values(f.tagIds.map((tagId) => ({ fileId: row.id, tagId })));
  return row;
}

export async function createPlaylist(
  db: Db,
  p: {
    name?: string;
    description?: string;
    creatorId: number;
    fileIds?: number[];
    disabledFileIds?: number[];
    isPublic?: boolean;
    isCore?: boolean;
    expLevel?: number;
    dateCreated?: Date;
  },
) {
  const [row] = await db
    .insert(playlists)
    .values({
      name: p.name ?? `Playlist ${next()}`,
      description: p.description ?? '',
      creatorId: p.creatorId,
      isPublic: p.isPublic ?? true,
      isCore: p.isCore ?? false,
      expLevel: p.expLevel ?? 1,
      dateCreated: p.dateCreated ?? new Date('2026-05-01T00:00:00Z'),
    })
    .returning();
  const disabled = new Set(p.disabledFileIds ?? []);
  if (p.fileIds?.length) {
    await db.insert(playlistFiles).values(
      p.fileIds.map((fileId, i) => ({
        playlistId: row.id,
        position: i + 1,
        fileId,
        disabled: disabled.has(fileId),
      })),
    );
  }
  return row;
}

/** Stores a rating and keeps the playlist's counters in step, as the service does. */
export async function ratePlaylist(
  db: Db,
  playlistId: number,
  userId: number,
  r: { liked?: boolean; disliked?: boolean; favorite?: boolean },
) {
  await db.insert(playlistRatings).values({ playlistId, userId, ...r });
  const [p] = await db.select().from(playlists).where(eq(playlists.id, playlistId));
  await db
    .update(playlists)
    .set({
      likes: p.likes + (r.liked ? 1 : 0),
      dislikes: p.dislikes + (r.disliked ? 1 : 0),
      favorites: p.favorites + (r.favorite ? 1 : 0),
    })
    .where(eq(playlists.id, playlistId));
}

export async function createSeries(
  db: Db,
  s: { name?: string; description?: string; creatorId: number; playlistIds: number[]; dateCreated?: Date },
) {
  const [row] = await db
    .insert(series)
    .values({
      name: s.name ?? `Plan ${next()}`,
      description: s.description ?? '',
      creatorId: s.creatorId,
      dateCreated: s.dateCreated ?? new Date('2026-05-01T00:00:00Z'),
    })
    .returning();
  if (s.playlistIds.length) {
    await db
      .insert(seriesPlaylists)
      .values(s.playlistIds.map((playlistId, i) => ({ seriesId: row.id, position: i + 1, playlistId })));
  }
  return row;
}

export async function setSeriesPosition(db: Db, userId: number, seriesId: number, playlistIndex: number) {
  await db.insert(userSeries).values({ userId, seriesId, playlistIndex });
}

export async function setHideLockedFiles(db: Db, userId: number, hide: boolean) {
  await db.update(users).set({ hideLockedFiles: hide }).where(eq(users.id, userId));
}
