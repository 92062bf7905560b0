import { sql } from 'drizzle-orm';
import type { Database, WriteCount } from './client.ts';
import { libraryGeneration, sessionGeneration, viewerGeneration } from './schema/index.ts';

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
 * On the embedded database (`writes`: its count of statements that may write), `read`'s last answer
 * for `key` while no statement that may write has been sent since that read was sent (nothing else
 * can change it); otherwise, and on PostgreSQL, `read` itself. Reads under way are shared by
 * sharedReads around `read`, not here.
 */
function untilWritten<K, T>(
  writes: WriteCount | undefined,
  read: (key: K) => Promise<T>,
): (key: K) => Promise<T> {
  if (!writes) return read;
  // Answers of the current write count only: a write makes them all stale, so they go with it.
  const last = new Map<K, T>();
  let lastAtWrites = writes.count;
  return async (key) => {
    if (lastAtWrites !== writes.count) {
      last.clear();
      lastAtWrites = writes.count;
    }
    if (last.has(key)) return last.get(key) as T;
    const atWrites = writes.count;
    const value = await read(key);
    if (atWrites === writes.count && last.size < MAX_ANSWERS_UNTIL_WRITTEN) last.set(key, value);
    return value;
  };
}

/** The most answers untilWritten keeps between two writes (one per signed-in viewer asking). */
const MAX_ANSWERS_UNTIL_WRITTEN = 10_000;

/** What kept answers depend on (decision 010): the library's generation and the viewer's own. */
export interface Generations {
  library: number;
  /** The viewer's generation (viewer_generation); 0 for anonymous viewers. */
  viewer: number;
}

/**
 * The reader of the generations (decision 010) of a database; the app makes one (app.ts) and its
 * answers are kept for that database alone (two databases' generations are unrelated numbers). Anonymous viewers
 * read the library generation alone, and all concurrent requests share that read; a signed-in
 * viewer reads it with their own generation in one statement, shared between their own concurrent
 * requests (sharedReads). Both are prepared single-row queries.
 */
export function createGenerationsReader({
  db,
  writes,
}: Database): (viewerId: number | null) => Promise<Generations> {
  const library = db
    .select({ generation: libraryGeneration.generation })
    .from(libraryGeneration)
    .prepare('library_generation');
  const withViewer = db
    .select({
      library: libraryGeneration.generation,
      viewer: sql<number>`coalesce((select ${viewerGeneration.generation} from ${viewerGeneration}
        where ${viewerGeneration.userId} = ${sql.placeholder('viewerId')}), 0)::int8`.mapWith(Number),
    })
    .from(libraryGeneration)
    .prepare('viewer_generations');
  const anonymous = sharedReads(async () => ({
    library: (await library.execute())[0]?.generation ?? 0,
    viewer: 0,
  }));
  // Only while a viewer's read is under way or waited for: at most one entry per viewer asking now.
  const byViewer = new Map<number, { read: () => Promise<Generations>; waiting: number }>();
  const ofViewer = async (viewerId: number) => {
    let entry = byViewer.get(viewerId);
    if (!entry) {
      entry = {
        read: sharedReads(
          async () => (await withViewer.execute({ viewerId }))[0] ?? { library: 0, viewer: 0 },
        ),
        waiting: 0,
      };
      byViewer.set(viewerId, entry);
    }
    entry.waiting += 1;
    try {
      return await entry.read();
    } finally {
      entry.waiting -= 1;
      if (entry.waiting === 0) byViewer.delete(viewerId);
    }
  };
  return untilWritten(writes, (viewerId: number | null) =>
    viewerId === null ? anonymous() : ofViewer(viewerId),
  );
}

/**
 * The reader of the session generation (migration 0012, decision 034) of a database: what session
 * users kept in the process (platform/session-cache.ts, one per app) depend on. All concurrent
 * callers share one read (sharedReads) of a prepared single-row query; on the embedded database, a
 * read is not sent again until a statement that may write has been (untilWritten).
 */
export function createSessionGenerationReader({ db, writes }: Database): () => Promise<number> {
  const read = db
    .select({ generation: sessionGeneration.generation })
    .from(sessionGeneration)
    .prepare('session_generation');
  const kept = untilWritten(
    writes,
    sharedReads(async () => (await read.execute())[0]?.generation ?? 0),
  );
  return () => kept(null);
}
