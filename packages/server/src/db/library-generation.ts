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

/**
 * `create(db)` made once per database and kept while the database is: for state that belongs to
 * one database, such as what was read from it (two databases' generations are unrelated numbers).
 */
export function onePerDatabase<T>(create: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    if (!made.has(db)) made.set(db, create(db));
    return made.get(db) as T;
  };
}

/**
 * The reader of the library generation (decision 010) of a database, one per database: a prepared
 * single-row query whose reads concurrent callers share (sharedReads).
 */
export const libraryGenerationReader = onePerDatabase((db): (() => Promise<number>) => {
  const current = db
    .select({ generation: libraryGeneration.generation })
    .from(libraryGeneration)
    .prepare('library_generation');
  return sharedReads(async () => (await current.execute())[0]?.generation ?? 0);
});
