import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

/** What the analysis writes of one file: the audio's size always, the decoded parts when they were made. */
export interface FileAnalysis {
  audioSize: number;
  waveform?: number[];
  loudness?: number | null;
  peaksKey?: string;
}

/** The files rows the one-off analysis fills in (waveform, loudness, peaks and audio size of older files). */
export function createAnalyseLibraryRepo(db: Db) {
  const lacksDecoding = sql<boolean>`(${files.waveform} is null or ${files.loudness} is null or ${files.peaksKey} is null)`;
  return {
    /**
     * Up to `limit` files still lacking a waveform, loudness, peaks or audio size, after id `afterId`
     * (all of them, or only those lacking the size when `sizesOnly`); `decode` says whether the audio
     * must be decoded (a file lacking only its size is not).
     */
    async unanalysed(afterId: number, limit: number, { sizesOnly = false } = {}) {
      const lacking = sizesOnly ? isNull(files.audioSize) : or(lacksDecoding, isNull(files.audioSize));
      return db
        .select({
          id: files.id,
          uuid: files.uuid,
          audioKey: files.audioKey,
          duration: files.duration,
          decode: lacksDecoding.mapWith(Boolean),
        })
        .from(files)
        .where(and(gt(files.id, afterId), lacking))
        .orderBy(asc(files.id))
        .limit(limit);
    },
    async save(id: number, analysis: FileAnalysis) {
      await db.update(files).set(analysis).where(eq(files.id, id));
    },
  };
}
