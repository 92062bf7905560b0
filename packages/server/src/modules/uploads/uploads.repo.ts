import { and, asc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, uploadChunks, uploads } from '../../db/schema/index.ts';

export type UploadRow = typeof uploads.$inferSelect;
type NewUpload = typeof uploads.$inferInsert;
type UploadPatch = Partial<Omit<NewUpload, 'uuid' | 'userId'>>;

export function createUploadsRepo(db: Db) {
  return {
    async find(uuid: string): Promise<UploadRow | undefined> {
      const [row] = await db.select().from(uploads).where(eq(uploads.uuid, uuid));
      return row;
    },

    /** Inserts the upload unless a row with its uuid exists (two first chunks raced); answers the row kept. */
    async insertOrGet(row: NewUpload): Promise<{ row: UploadRow; inserted: boolean }> {
      const [inserted] = await db.insert(uploads).values(row).onConflictDoNothing().returning();
      if (inserted) return { row: inserted, inserted: true };
      const [kept] = await db.select().from(uploads).where(eq(uploads.uuid, row.uuid));
      return { row: kept, inserted: false };
    },

    async update(uuid: string, patch: UploadPatch): Promise<void> {
      await db.update(uploads).set(patch).where(eq(uploads.uuid, uuid));
    },

    /** Moves a 'receiving' upload to 'processing'; false when another call got there first. */
    async claimForProcessing(uuid: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(uploads)
        .set({ state: 'processing', updatedAt: now })
        .where(and(eq(uploads.uuid, uuid), eq(uploads.state, 'receiving')))
        .returning({ uuid: uploads.uuid });
      return rows.length === 1;
    },

    async chunks(uuid: string) {
      return db
        .select({ chunkIndex: uploadChunks.chunkIndex, size: uploadChunks.size, etag: uploadChunks.etag })
        .from(uploadChunks)
        .where(eq(uploadChunks.uploadUuid, uuid))
        .orderBy(asc(uploadChunks.chunkIndex));
    },

    async chunksOf(uuids: string[]) {
      if (uuids.length === 0) return [];
      return db
        .select({ uploadUuid: uploadChunks.uploadUuid, chunkIndex: uploadChunks.chunkIndex })
        .from(uploadChunks)
        .where(inArray(uploadChunks.uploadUuid, uuids))
        .orderBy(asc(uploadChunks.chunkIndex));
    },

    /** Bytes stored for the upload's chunks other than `exceptIndex` (the one being replaced). */
    async storedBytes(uuid: string, exceptIndex: number): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | null>`sum(${uploadChunks.size})` })
        .from(uploadChunks)
        .where(and(eq(uploadChunks.uploadUuid, uuid), ne(uploadChunks.chunkIndex, exceptIndex)));
      return Number(row?.total ?? 0);
    },

    async saveChunk(uuid: string, chunkIndex: number, size: number, etag: string, now: Date): Promise<void> {
      await db
        .insert(uploadChunks)
        .values({ uploadUuid: uuid, chunkIndex, size, etag })
        .onConflictDoUpdate({
          target: [uploadChunks.uploadUuid, uploadChunks.chunkIndex],
          set: { size, etag },
        });
      await db.update(uploads).set({ updatedAt: now }).where(eq(uploads.uuid, uuid));
    },

    async deleteChunk(uuid: string, chunkIndex: number): Promise<void> {
      await db
        .delete(uploadChunks)
        .where(and(eq(uploadChunks.uploadUuid, uuid), eq(uploadChunks.chunkIndex, chunkIndex)));
    },

    async deleteChunks(uuid: string): Promise<void> {
      await db.delete(uploadChunks).where(eq(uploadChunks.uploadUuid, uuid));
    },

    async delete(uuid: string): Promise<void> {
      await db.delete(uploads).where(eq(uploads.uuid, uuid));
    },

    async listOf(userId: number): Promise<UploadRow[]> {
      return db.select().from(uploads).where(eq(uploads.userId, userId)).orderBy(asc(uploads.createdAt));
    },

    /** Uploads not touched since `before`. */
    async abandoned(before: Date): Promise<UploadRow[]> {
      return db.select().from(uploads).where(lt(uploads.updatedAt, before));
    },

    /** Whether a file row already uses the upload's uuid (it was claimed; its audio belongs to the file). */
    async claimed(uuid: string): Promise<boolean> {
      const [row] = await db.select({ id: files.id }).from(files).where(eq(files.uuid, uuid));
      return row !== undefined;
    },
  };
}
