import { parseStream } from 'music-metadata';
import type { AppContext } from '../../platform/context.ts';
import { createStorage, type Storage } from '../../platform/storage.ts';
import { createAnalyseLibraryRepo } from './analyse-library.repo.ts';
import { decodeStored } from './processing.ts';

export interface AnalyseResult {
  analysed: number;
  /** Files whose audio is missing or could not be decoded (left as they were). */
  failed: { id: number; audioKey: string; error: string }[];
}

const BATCH = 50;

/** The length of stored audio when the row does not know it (0 in old rows). */
async function durationOf(storage: Storage, key: string): Promise<number> {
  const { format } = await parseStream(storage.createReadStream(key), undefined, {
    duration: true,
    skipCovers: true,
  });
  return Math.round((format.duration ?? 0) * 1000);
}

/**
 * Computes the waveform and loudness of every file still lacking them, from its stored audio,
 * one file at a time (`npm run admin -- analyse`). `log` hears the progress.
 */
export async function analyseStoredAudio(
  ctx: Pick<AppContext, 'db' | 'config'>,
  {
    log = console.log,
    storage = createStorage(ctx.config),
  }: { log?: (line: string) => void; storage?: Storage } = {},
): Promise<AnalyseResult> {
  const repo = createAnalyseLibraryRepo(ctx.db);
  const result: AnalyseResult = { analysed: 0, failed: [] };
  let afterId = 0;
  for (;;) {
    const batch = await repo.unanalysed(afterId, BATCH);
    if (batch.length === 0) break;
    for (const file of batch) {
      afterId = file.id;
      try {
        if (!(await storage.stat(file.audioKey))) throw new Error('the audio is not in storage');
        const format = file.audioKey.split('.').pop() ?? '';
        const duration = file.duration > 0 ? file.duration : await durationOf(storage, file.audioKey);
        const decoded = await decodeStored(storage, file.audioKey, format, duration);
        await repo.save(file.id, decoded.waveform, decoded.loudness);
        result.analysed++;
        log(`file ${file.id}: ${decoded.waveform.length} peaks, ${decoded.loudness ?? '?'} LUFS`);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        result.failed.push({ id: file.id, audioKey: file.audioKey, error });
        log(`file ${file.id} (${file.audioKey}): not analysed: ${error}`);
      }
    }
  }
  log(`analysed ${result.analysed} files, ${result.failed.length} failed`);
  return result;
}
