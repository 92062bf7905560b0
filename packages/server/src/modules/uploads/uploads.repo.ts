import { and, asc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, uploadChunks, uploads } from '../../db/schema/index.ts';

export type UploadRow = typeof uploads.$inferSelect;
type NewUpload = typeof uploads.$inferInsert;
type UploadPatch = Partial<Omit<NewUpload, 'id' | 'uuid' | 'userId'>>;

/**
 * Uploads are found by their owner and the client's handle (`uuid`); everything after that goes by
 * the server's id (`id`), which is also what storage and the new file use.
 */
export function createUploadsRepo(db: Db) {
  return {
    /** The user's upload with the client's handle `uuid`. */
    async findOwn(userId: number, uuid: string): Promise<UploadRow | undefined> {
      const [row] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.userId, userId), eq(uploads.uuid, uuid)));
      return row;
    },

    /** Inserts the upload unless the user has one with its handle (two first chunks raced); answers the row kept. */
    async insertOrGet(row: NewUpload & { id: string }): Promise<{ row: UploadRow; inserted: boolean }> {
      const [inserted] = await db.insert(uploads).values(row).onConflictDoNothing().returning();
      if (inserted) return { row: inserted, inserted: true };
      const [kept] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.userId, row.userId), eq(uploads.uuid, row.uuid)));
      return { row: kept, inserted: false };
    },

    async update(id: string, patch: UploadPatch): Promise<void> {
      await db.update(uploads).set(patch).where(eq(uploads.id, id));
    },

    /** Moves a 'receiving' upload to 'processing'; false when another call got there first. */
    async claimForProcessing(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(uploads)
        .set({ state: 'processing', updatedAt: now })
        .where(and(eq(uploads.id, id), eq(uploads.state, 'receiving')))
        .returning({ id: uploads.id });
      return rows.length === 1;
    },

    async chunks(id: string) {
      return db
        .select({ chunkIndex: uploadChunks.chunkIndex, size: uploadChunks.size, etag: uploadChunks.etag })
        .from(uploadChunks)
        .where(eq(uploadChunks.uploadId, id))
        .orderBy(asc(uploadChunks.chunkIndex));
    },

    async chunksOf(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ uploadId: uploadChunks.uploadId, chunkIndex: uploadChunks.chunkIndex })
        .from(uploadChunks)
        .where(inArray(uploadChunks.uploadId, ids))
        .orderBy(asc(uploadChunks.chunkIndex));
    },

    /** Bytes stored for the upload's chunks other than `exceptIndex` (the one being replaced). */
    async storedBytes(id: string, exceptIndex: number): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | null>`sum(${uploadChunks.size})` })
        .from(uploadChunks)
        .where(and(eq(uploadChunks.uploadId, id), ne(uploadChunks.chunkIndex, exceptIndex)));
      return Number(row?.total ?? 0);
    },

    /**
     * Bytes the user's unfinished uploads hold in storage: the chunks received (not counting chunk
     * `except.chunkIndex` of upload `except.id`, about to be replaced) and the processed audio of
     * uploads not yet made into files. Failed uploads hold none (their bytes go when they fail).
     */
    async heldBytes(userId: number, except?: { id: string; chunkIndex: number }): Promise<number> {
      const [chunked] = await db
        .select({ total: sql<string | null>`sum(${uploadChunks.size})` })
        .from(uploadChunks)
        .innerJoin(uploads, eq(uploads.id, uploadChunks.uploadId))
        .where(
          and(
            eq(uploads.userId, userId),
            except
              ? or(ne(uploadChunks.uploadId, except.id), ne(uploadChunks.chunkIndex, except.chunkIndex))
              : undefined,
          ),
        );
      const [processed] = await db
        .select({ total: sql<string | null>`sum(${uploads.size})` })
        .from(uploads)
        .where(and(eq(uploads.userId, userId), eq(uploads.state, 'ready')));
      return Number(chunked?.total ?? 0) + Number(processed?.total ?? 0);
    },

    async saveChunk(id: string, chunkIndex: number, size: number, etag: string, now: Date): Promise<void> {
      await db
        .insert(uploadChunks)
        .values({ uploadId: id, chunkIndex, size, etag })
        .onConflictDoUpdate({
          target: [uploadChunks.uploadId, uploadChunks.chunkIndex],
          set: { size, etag },
        });
      await db.update(uploads).set({ updatedAt: now }).where(eq(uploads.id, id));
    },

    async deleteChunk(id: string, chunkIndex: number): Promise<void> {
      await db
        .delete(uploadChunks)
        .where(and(eq(uploadChunks.uploadId, id), eq(uploadChunks.chunkIndex, chunkIndex)));
    },

    async deleteChunks(id: string): Promise<void> {
      await db.delete(uploadChunks).where(eq(uploadChunks.uploadId, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(uploads).where(eq(uploads.id, id));
    },

    async listOf(userId: number): Promise<UploadRow[]> {
      return db.select().from(uploads).where(eq(uploads.userId, userId)).orderBy(asc(uploads.createdAt));
    },

    /** Uploads started before `before`, whatever was sent since: an upload's age counts from its start. */
    async abandoned(before: Date): Promise<UploadRow[]> {
      return db.select().from(uploads).where(lt(uploads.createdAt, before));
    },

    /** Whether a file has the uuid `uuid` (a file made from the upload with that id, or any published file). */
    async fileHas(uuid: string): Promise<boolean> {
      const [row] = await db.select({ id: files.id }).from(files).where(eq(files.uuid, uuid));
      return row !== undefined;
    },
  };
}
