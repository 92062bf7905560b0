import type { Db } from './client.ts';
import { libraryGeneration } from './schema/index.ts';

/**
 * Shares calls of `read` between concurrent callers: at most one is under way, and callers that
 * arrive meanwhile wait for the next one. Never the one under way: it may have started before a
 * write that the caller has already seen committed.
 */
export function sharedReads<T>(read: () => Promise<T>): () => Promise<T> {
  let underWay: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const shared = (): Promise<T> => {
    if (!underWay) {
      underWay = read().finally(() => {
        underWay = null;
      });
      return underWay;
    }
    next ??= underWay
      .catch(() => undefined)
      .then(() => {
        next = null;
        return shared();
      });
    return next;
  };
  return shared;
}

const readers = new WeakMap<Db, () => Promise<number>>();

/**
 * The reader of the library generation (decision 010) of a database, one per database: a prepared
 * single-row query whose reads concurrent callers share (sharedReads).
 */
export function libraryGenerationReader(db: Db): () => Promise<number> {
  let read = readers.get(db);
  if (!read) {
    const current = db
      .select({ generation: libraryGeneration.generation })
      .from(libraryGeneration)
      .prepare('library_generation');
    read = sharedReads(async () => (await current.execute())[0]?.generation ?? 0);
    readers.set(db, read);
  }
  return read;
}
