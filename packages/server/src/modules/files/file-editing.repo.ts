import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { type Db, withTransaction } from '../../db/client.ts';
import {
  files,
  fileTiers,
  fileTriggers,
  membershipTiers,
  playlistFiles,
  triggers,
} from '../../db/schema/index.ts';

/** What the write calls need to know of a file. */
export interface EditableFile {
  id: number;
  uuid: string;
  uploaderId: number;
  authorId: number;
  isPublic: boolean;
  audioKey: string;
  hapticsKey: string | null;
  scriptKey: string | null;
  /** Raised by every change of the haptics. */
  hapticsRevision: number;
  peaksKey: string | null;
  /** Milliseconds (0 in rows older than the analysis). */
  duration: number;
}

export interface NewFile {
  uuid: string;
  name: string;
  description: string;
  fileType: number;
  trackNumber: number | null;
  releaseDate: Date;
  isPublic: boolean;
  duration: number;
  audioKey: string;
  audioType: string;
  /** Bytes of the stored audio. */
  audioSize: number | null;
  waveform: number[] | null;
  loudness: number | null;
  peaksKey: string | null;
  authorId: number;
  uploaderId: number;
  userUploaded: boolean;
}

export type FileFields = Partial<Pick<NewFile, 'name' | 'description' | 'fileType' | 'isPublic'>>;

/** The writes of files: creating, editing, deleting, attachments (the reads are files.repo.ts). */
export function createFileEditingRepo(db: Db) {
  return {
    async editable(id: number): Promise<EditableFile | null> {
      const [row] = await db
        .select({
          id: files.id,
          uuid: files.uuid,
          uploaderId: files.uploaderId,
          authorId: files.authorId,
          isPublic: files.isPublic,
          audioKey: files.audioKey,
          hapticsKey: files.hapticsKey,
          scriptKey: files.scriptKey,
          hapticsRevision: files.hapticsRevision,
          peaksKey: files.peaksKey,
          duration: files.duration,
        })
        .from(files)
        .where(eq(files.id, id));
      return row ?? null;
    },

    /** Whether a file has the uuid (an upload's server id: a file was already made of it). */
    async uuidTaken(uuid: string): Promise<boolean> {
      const rows = await db.select({ id: files.id }).from(files).where(eq(files.uuid, uuid));
      return rows.length > 0;
    },

    /** A user's own membership tiers (their campaign), lowest first. */
    async tiersOf(userId: number) {
      return db
        .select({ id: membershipTiers.id, name: membershipTiers.title, rank: membershipTiers.rank })
        .from(membershipTiers)
        .where(eq(membershipTiers.creatorUserId, userId))
        .orderBy(asc(membershipTiers.rank), asc(membershipTiers.id));
    },

    /** The ids of `ids` that are triggers files may link: existing, not pending requests. */
    async usableTriggerIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: triggers.id })
        .from(triggers)
        .where(and(inArray(triggers.id, ids), eq(triggers.pending, false)));
      return new Set(rows.map((r) => r.id));
    },

    async insert(file: NewFile): Promise<number> {
      const [row] = await db.insert(files).values(file).returning({ id: files.id });
      return row.id;
    },

    /** Sets the fields given; undefined ones stay. */
    async updateFields(id: number, fields: FileFields) {
      const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (Object.keys(given).length === 0) return;
      await db.update(files).set(given).where(eq(files.id, id));
    },

    async replaceTier(fileId: number, tierId: string | null) {
      await db.delete(fileTiers).where(eq(fileTiers.fileId, fileId));
      if (tierId !== null) await db.insert(fileTiers).values({ fileId, tierId });
    },

    async replaceTriggers(fileId: number, links: { id: number; trains: boolean }[]) {
      await db.delete(fileTriggers).where(eq(fileTriggers.fileId, fileId));
      if (links.length === 0) return;
      await db.insert(fileTriggers).values(links.map((t) => ({ fileId, triggerId: t.id, trains: t.trains })));
    },

    /**
     * Deletes the file; its links and playlist entries go with it (foreign keys cascade). The
     * playlists it was in are numbered 1..n again, in the same order, as replaceEntries leaves them.
     */
    /** The files a user authored or uploaded, with their media keys. */
    async ownedBy(userId: number) {
      return db
        .select({
          id: files.id,
          audioKey: files.audioKey,
          hapticsKey: files.hapticsKey,
          scriptKey: files.scriptKey,
          peaksKey: files.peaksKey,
        })
        .from(files)
        .where(or(eq(files.authorId, userId), eq(files.uploaderId, userId)));
    },

    async delete(id: number) {
      const holding = db
        .selectDistinct({ playlistId: playlistFiles.playlistId })
        .from(playlistFiles)
        .where(eq(playlistFiles.fileId, id));
      const playlistIds = (await holding).map((r) => r.playlistId);
      await db.delete(files).where(eq(files.id, id));
      if (playlistIds.length === 0) return;
      const inPlaylists = inArray(playlistFiles.playlistId, playlistIds);
      // Through negative numbers: (playlist, position) is unique at every row, not only at the end.
      await db.execute(sql`update ${playlistFiles} set position = -numbered.n
        from (select ${playlistFiles.playlistId} as playlist_id, ${playlistFiles.position} as position,
                row_number() over (partition by ${playlistFiles.playlistId} order by ${playlistFiles.position}) as n
              from ${playlistFiles} where ${inPlaylists}) as numbered
        where ${playlistFiles.playlistId} = numbered.playlist_id and ${playlistFiles.position} = numbered.position`);
      await db
        .update(playlistFiles)
        .set({ position: sql`-${playlistFiles.position}` })
        .where(and(inPlaylists, sql`${playlistFiles.position} < 0`));
    },

    /**
     * Sets the haptics key (null: none) and raises their revision, in one transaction holding the
     * row, when the revision is still `expected` (any revision when null). Answers the new revision
     * and the key it replaced, or null when the file is gone or its revision moved on.
     */
    async replaceHaptics(
      id: number,
      key: string | null,
      expected: number | null,
    ): Promise<{ revision: number; previousKey: string | null } | null> {
      return withTransaction(db, async (tx) => {
        const [row] = await tx
          .select({ key: files.hapticsKey, revision: files.hapticsRevision })
          .from(files)
          .where(eq(files.id, id))
          .for('update');
        if (!row || (expected !== null && row.revision !== expected)) return null;
        const [updated] = await tx
          .update(files)
          .set({ hapticsKey: key, hapticsRevision: sql`${files.hapticsRevision} + 1` })
          .where(eq(files.id, id))
          .returning({ revision: files.hapticsRevision });
        return { revision: updated.revision, previousKey: row.key };
      });
    },

    /** The haptics' key and revision now (a reader racing a save reads them again). */
    async haptics(id: number): Promise<{ key: string | null; revision: number } | null> {
      const [row] = await db
        .select({ key: files.hapticsKey, revision: files.hapticsRevision })
        .from(files)
        .where(eq(files.id, id));
      return row ?? null;
    },

    async setPeaksKey(id: number, key: string) {
      await db.update(files).set({ peaksKey: key }).where(eq(files.id, id));
    },

    async setScriptKey(id: number, key: string | null) {
      await db.update(files).set({ scriptKey: key }).where(eq(files.id, id));
    },

    async waveform(id: number) {
      const [row] = await db
        .select({ peaks: files.waveform, loudness: files.loudness })
        .from(files)
        .where(eq(files.id, id));
      return row ?? null;
    },
  };
}
