import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database, WriteCount } from './client.ts';
import { GENERATIONS, type GenerationName, type LibraryPart } from './kept-generations.ts';
import { keptChanges, keptGenerations } from './schema/index.ts';

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

/**
 * What kept data depends on (decision 010): the generations of the library's parts and of the
 * sessions, read together.
 */
export type Generations = Record<GenerationName, number>;

/** Whether data kept at `kept` and read from `parts` is current at `now`. */
export function sameGenerations(kept: Generations, now: Generations, parts: readonly LibraryPart[]): boolean {
  return parts.every((part) => kept[part] === now[part]);
}

/**
 * The reader of the generations of a database: what the read cache (platform/read-cache.ts) and the
 * session users kept in the process (platform/session-cache.ts, decision 034) depend on. The app
 * makes one (app.ts) and its answers are kept for that database alone (two databases' generations
 * are unrelated numbers). All concurrent requests share one read (sharedReads) of its
 * few rows; on the embedded database, a read is not sent again until a statement that may
 * write has been (untilWritten).
 */
export function createGenerationsReader({ db, writes }: Database): () => Promise<Generations> {
  const read = db.select().from(keptGenerations).prepare('kept_generations');
  return untilWritten(
    writes,
    sharedReads(async () => {
      const generations = Object.fromEntries(GENERATIONS.map((name) => [name, 0])) as Generations;
      for (const { name, generation } of await read.execute())
        generations[name as GenerationName] = generation;
      return generations;
    }),
  );
}

/**
 * The ids of the rows whose logged changes raised `part` after generation `from` up to `to`; null
 * when a raise between was not logged (an entry, a plan, a name, or older than LOGGED_CHANGES).
 */
export type ChangedRows = (part: LibraryPart, from: number, to: number) => Promise<number[] | null>;

export const createChangedRowsReader =
  ({ db }: Database): ChangedRows =>
  async (part, from, to) => {
    const { generation, rowId, generationName } = keptChanges;
    const logged = await db
      .select({ generation, rowId })
      .from(keptChanges)
      .where(and(eq(generationName, part), gt(generation, from), lte(generation, to)));
    const raised = new Set(logged.map((row) => row.generation));
    return raised.size === to - from ? logged.map((row) => row.rowId) : null;
  };
