import { eq, sql } from 'drizzle-orm';
import type { Database, WriteCount } from './client.ts';
import type { GenerationName, LibraryPart } from './kept-generations.ts';
import { keptGenerations } from './schema/index.ts';

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
 * while no statement that may write has been sent since that read was sent (nothing else can
 * change it); otherwise, and on PostgreSQL, `read` itself.
 */
function untilWritten<T>(writes: WriteCount | undefined, read: () => Promise<T>): () => Promise<T> {
  if (!writes) return read;
  let last: { value: T; atWrites: number } | null = null;
  return async () => {
    if (last?.atWrites === writes.count) return last.value;
    const atWrites = writes.count;
    const value = await read();
    if (atWrites === writes.count) last = { value, atWrites };
    return value;
  };
}

/** What kept library data depends on (decision 010): the generations of the library's parts. */
export type Generations = Record<LibraryPart, number>;

/** Whether data kept at `kept` and read from `parts` is current at `now`. */
export function sameGenerations(kept: Generations, now: Generations, parts: readonly LibraryPart[]): boolean {
  return parts.every((part) => kept[part] === now[part]);
}

/** A generation's current count, as a scalar subquery. */
const generationOf = (name: GenerationName) =>
  sql<number>`coalesce((select ${keptGenerations.generation} from ${keptGenerations}
    where ${keptGenerations.name} = ${sql.raw(`'${name}'`)}), 0)::int8`.mapWith(Number);

/**
 * The reader of the library's generations of a database; the app makes one (app.ts) and its
 * answers are kept for that database alone (two databases' generations are unrelated numbers).
 * All concurrent requests share one read (sharedReads) of a prepared single-row query.
 */
export function createGenerationsReader({ db, writes }: Database): () => Promise<Generations> {
  const library = db
    .select({ files: generationOf('files'), playlists: generationOf('playlists') })
    .from(sql`(select) as one_row`)
    .prepare('library_generations');
  return untilWritten(
    writes,
    sharedReads(async () => (await library.execute())[0] ?? { files: 0, playlists: 0 }),
  );
}

/**
 * The reader of the sessions generation (db/kept-generations.ts, decision 034) of a database: what
 * session users kept in the process (platform/session-cache.ts, one per app) depend on. All
 * concurrent callers share one read (sharedReads) of a prepared single-row query; on the embedded
 * database, a read is not sent again until a statement that may write has been (untilWritten).
 */
export function createSessionGenerationReader({ db, writes }: Database): () => Promise<number> {
  const read = db
    .select({ generation: keptGenerations.generation })
    .from(keptGenerations)
    .where(eq(keptGenerations.name, 'sessions'))
    .prepare('sessions_generation');
  return untilWritten(
    writes,
    sharedReads(async () => (await read.execute())[0]?.generation ?? 0),
  );
}
