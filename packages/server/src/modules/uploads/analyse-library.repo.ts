import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

/** The files rows the one-off analysis fills in (waveform and loudness of older files). */
export function createAnalyseLibraryRepo(db: Db) {
  return {
    /** Up to `limit` files still lacking a waveform or loudness, after id `afterId`. */
    async unanalysed(afterId: number, limit: number) {
      return db
        .select({ id: files.id, audioKey: files.audioKey, duration: files.duration })
        .from(files)
        .where(and(gt(files.id, afterId), or(isNull(files.waveform), isNull(files.loudness))))
        .orderBy(asc(files.id))
        .limit(limit);
    },
    async save(id: number, waveform: number[], loudness: number | null) {
      await db.update(files).set({ waveform, loudness }).where(eq(files.id, id));
    },
  };
}
