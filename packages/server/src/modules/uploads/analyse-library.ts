import { parseStream } from 'music-metadata';
import type { AppContext } from '../../platform/context.ts';
import { createStorage, type Storage } from '../../platform/storage.ts';
import type { StoredObject } from '../../platform/storage-core.ts';
import { createAnalyseLibraryRepo } from './analyse-library.repo.ts';
import { peaksKeyOf, storePeaks } from './peaks-file.ts';
import { decodeStored } from './processing.ts';

export interface AnalyseResult {
  /** Files whose audio was decoded (waveform, loudness, peaks) and measured. */
  analysed: number;
  /** Files that lacked only the audio's size: measured, not decoded. */
  measured: number;
  /** Files whose audio is missing or could not be decoded (left as they were, but for the size when stored). */
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
 * Computes the waveform, loudness and the cue editor's peaks of every file still lacking them, from
 * its stored audio, one file at a time (`npm run admin -- analyse`, and at start with the demo
 * library: files analysed before the peaks were kept get them so), and measures the stored audio of
 * files without a size (the staff dashboard's storage used); a file lacking only its size is not
 * decoded. `sizesOnly` measures sizes and nothing else (`npm run admin -- analyse --sizes-only`).
 * `log` hears the progress.
 */
export async function analyseStoredAudio(
  ctx: Pick<AppContext, 'db' | 'config'>,
  {
    log = console.log,
    storage = createStorage(ctx.config),
    sizesOnly = false,
  }: { log?: (line: string) => void; storage?: Storage; sizesOnly?: boolean } = {},
): Promise<AnalyseResult> {
  const repo = createAnalyseLibraryRepo(ctx.db);
  const result: AnalyseResult = { analysed: 0, measured: 0, failed: [] };
  let afterId = 0;
  for (;;) {
    const batch = await repo.unanalysed(afterId, BATCH, { sizesOnly });
    if (batch.length === 0) break;
    for (const file of batch) {
      afterId = file.id;
      let stored: StoredObject | null = null;
      try {
        stored = await storage.stat(file.audioKey);
        if (!stored) throw new Error('the audio is not in storage');
        if (sizesOnly || !file.decode) {
          await repo.save(file.id, { audioSize: stored.size });
          result.measured++;
          log(`file ${file.id}: ${stored.size} bytes`);
          continue;
        }
        const format = file.audioKey.split('.').pop() ?? '';
        const duration = file.duration > 0 ? file.duration : await durationOf(storage, file.audioKey);
        const decoded = await decodeStored(storage, file.audioKey, format, duration);
        const peaksKey = peaksKeyOf(file.uuid);
        await storePeaks(storage, peaksKey, decoded.finePeaks);
        await repo.save(file.id, {
          audioSize: stored.size,
          waveform: decoded.waveform,
          loudness: decoded.loudness,
          peaksKey,
        });
        result.analysed++;
        log(
          `file ${file.id}: ${decoded.waveform.length} peaks, ${decoded.loudness ?? '?'} LUFS, ${stored.size} bytes`,
        );
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        // Audio that cannot be decoded still takes its room in storage.
        if (stored) await repo.save(file.id, { audioSize: stored.size }).catch(() => undefined);
        result.failed.push({ id: file.id, audioKey: file.audioKey, error });
        log(`file ${file.id} (${file.audioKey}): not analysed: ${error}`);
      }
    }
  }
  log(`analysed ${result.analysed} files, measured ${result.measured}, ${result.failed.length} failed`);
  return result;
}
