import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { LibraryPart } from '../db/kept-generations.ts';
import { type ChangedRows, type Generations, sameGenerations } from '../db/library-generation.ts';
import type { Viewer } from './access.repo.ts';
import type { Clock } from './clock.ts';

/**
 * What the server keeps of the library between requests (decision 010): answers of the library's
 * read calls, the first rows of paged lists with their totals, full rows by id and small lookups,
 * each given while the generations of the parts it reads are current (db/kept-generations.ts), so a
 * change through any process, the admin command or psql shows on the next request. An answer also
 * expires after `ttlMs`: the clock (release dates, signed media URLs) and rating counts raise none.
 * Answers are shared by everyone who sees the library alike (whoseAnswer); those that read a user's
 * own ratings or progress (`personal`) are computed each time.
 */
export interface ReadCache {
  /** The answer of a GET route, kept as serialised, or computed by `compute`. */
  answer<T>(
    req: FastifyRequest,
    reply: FastifyReply,
    opts: AnswerOptions,
    compute: () => Promise<T>,
  ): Promise<T>;
  /** The first rows of lists by filter and order, with the list's total (files.repo, playlists.repo). */
  orders: Shared<KeptOrder>;
  /** Small answers by key: may-play checks, search targets, trigger links, triggers by name, ownership. */
  lookups: Shared<unknown>;
  /** Full rows by id, shared by every viewer (which rows a viewer may see is the filter's business). */
  rows: { files: KeptRows; playlists: KeptRows };
}

/**
 * A kept row is given until a change of its part may have touched it, its counts read again
 * (`read.counts`) once they may have changed: play counts after a play, playlists' rating counts
 * once as old as a kept answer may be. The rows not kept are read (`read.rows`) and kept.
 */
export interface KeptRows {
  obtain<R extends { id: number }>(
    ids: readonly number[],
    read: { rows: (ids: number[]) => Promise<R[]>; counts: (ids: number[]) => Promise<Partial<R>[]> },
  ): Promise<Map<number, R>>;
}

export interface AnswerOptions {
  /** The parts of the library the answer is read from. */
  reads: readonly LibraryPart[];
  /** Who the answer is for (access.listViewer); without one, it is the same for everyone. */
  viewer?: Viewer;
  /** The answer reads the signed-in user's own ratings or progress: computed, never kept. */
  personal?: boolean;
}

/**
 * Values kept by key, each computed once for every concurrent caller (a popular list's first
 * request would otherwise order it once per request). One kept at older generations is kept on when
 * `unchangedSince` finds that the changes since left it alone; otherwise `compute` is given it
 * (`was`) and the app clock's time.
 */
export interface Shared<T> {
  obtain<V extends T>(
    key: string,
    opts: {
      reads: readonly LibraryPart[];
      unchangedSince?: (kept: Generations, now: Generations) => Promise<boolean>;
    },
    compute: (was: V | undefined, now: number) => Promise<V>,
  ): Promise<V>;
}

/** The ids of a list's first rows, in order, and its total, counted at `countedAt` (db/row-count.ts). */
export interface KeptOrder {
  ids: readonly number[];
  total: number;
  countedAt: number;
}

/** First-row orders (a few hundred ids each) and lookups, each. */
const MAX_KEPT_VALUES = 5000;
/** Full rows of each part (1-2 KB each with their triggers and tags): about 10-20 MB. */
const MAX_KEPT_ROWS = 10_000;

type Entry<T> = { value: T; generations: Generations };

type ReadGenerations = () => Promise<Generations>;

/** The generations (of database `read`) of the answer being computed: what it looks up is judged at those. */
const answering = new AsyncLocalStorage<{ read: ReadGenerations; generations: Generations }>();

function generationsFor(read: ReadGenerations): Promise<Generations> {
  const current = answering.getStore();
  return current?.read === read ? Promise.resolve(current.generations) : read();
}

/** Who shares a kept answer: everyone, one owner, or everyone who sees the library as `viewer` does. */
function whoseAnswer(viewer: Viewer | undefined): string {
  if (!viewer) return 'anyone';
  const audience = JSON.stringify([
    viewer.readsAllFiles,
    [...viewer.entitledTierIds].sort(),
    viewer.hideLockedFiles,
  ]);
  return viewer.id === null ? `audience ${audience}` : `user ${viewer.id} ${audience}`;
}

/** Shared values (Shared): kept while their generations are current; a key's are what its `compute` answers. */
function sharedValues<T>(read: ReadGenerations, clock: Clock, max: number): Shared<T> {
  const kept = new LRUCache<string, Entry<T>>({ max });
  const underWay = new Map<string, { generations: Generations; value: Promise<T> }>();
  async function obtain(
    key: string,
    { reads, unchangedSince }: Parameters<Shared<T>['obtain']>[1],
    compute: (was: T | undefined, now: number) => Promise<T>,
  ): Promise<T> {
    const generations = await generationsFor(read);
    const stale = kept.get(key);
    if (stale && sameGenerations(stale.generations, generations, reads)) return stale.value;
    const shared = underWay.get(key);
    if (shared && sameGenerations(shared.generations, generations, reads)) return shared.value;
    const now = clock.now().getTime();
    const recompute = () => compute(stale?.value, now);
    const mine = {
      generations,
      value:
        stale && unchangedSince
          ? unchangedSince(stale.generations, generations).then((same) => (same ? stale.value : recompute()))
          : recompute(),
    };
    underWay.set(key, mine);
    try {
      const value = await mine.value;
      kept.set(key, { value, generations });
      return value;
    } finally {
      if (underWay.get(key) === mine) underWay.delete(key);
    }
  }
  return { obtain } as Shared<T>;
}

export function createReadCache(opts: {
  /** generationsReader (db/library-generation.ts): concurrent requests share its reads. */
  readGenerations: ReadGenerations;
  /** Which rows a raise changed (db/library-generation.ts); without it, any raise drops a part's kept rows. */
  changedRows?: ChangedRows;
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
  /** The kept bodies' total length (a thousand large pages could be gigabytes); a longer one is not kept. */
  maxCharacters: number;
}): ReadCache {
  const { ttlMs, maxEntries, maxCharacters, clock, readGenerations: read, changedRows } = opts;
  const orders = sharedValues<KeptOrder>(read, clock, MAX_KEPT_VALUES);
  const lookups = sharedValues<unknown>(read, clock, MAX_KEPT_VALUES);
  const rows = {
    // Raises of `files` are not logged: each drops every kept file row.
    files: keptRows(read, 'files', (generations) => generations.plays),
    // Ratings raise no generation: playlists' counts are kept for the `ttlMs` window (else read each call).
    playlists: keptRows(
      read,
      'playlists',
      () => (ttlMs > 0 ? Math.floor(clock.now().getTime() / ttlMs) : Number.NaN),
      changedRows,
    ),
  };
  if (ttlMs <= 0) return { answer: (_req, _reply, _opts, compute) => compute(), orders, lookups, rows };

  type Body = ReturnType<FastifyReply['serialize']>;
  const kept = new LRUCache<string, Entry<Promise<Body>> & { keptAt: number; characters: number }>({
    max: maxEntries,
    // An answer still being computed weighs 1 (lru-cache wants a positive size) until its length is known.
    sizeCalculation: (entry) => Math.max(1, entry.characters),
    maxSize: maxCharacters,
    maxEntrySize: maxCharacters,
  });

  return {
    orders,
    lookups,
    rows,
    async answer<T>(
      req: FastifyRequest,
      reply: FastifyReply,
      { reads, viewer, personal }: AnswerOptions,
      compute: () => Promise<T>,
    ): Promise<T> {
      if (personal) return compute();
      const key = `${whoseAnswer(viewer)} ${req.routeOptions.url} ${JSON.stringify(req.query)}`;
      const generations = await (req.generations ?? read());
      const now = clock.now().getTime();
      let entry = kept.get(key);
      if (
        entry &&
        sameGenerations(entry.generations, generations, reads) &&
        // A clock moved backwards (tests) counts as old too.
        Math.abs(now - entry.keptAt) < ttlMs
      ) {
        reply.header('x-cache', 'hit');
      } else {
        const computed = {
          generations,
          keptAt: now,
          // Kept as the route's serializer wrote it: a kept answer is only sent, not serialised again.
          value: answering.run({ read, generations }, compute).then((answer) => reply.serialize(answer)),
          characters: 0,
        };
        computed.value.then(
          (body) => {
            if (kept.peek(key) !== computed) return;
            computed.characters = typeof body === 'string' ? body.length : body.byteLength;
            // Set again to be weighed with its length: lru-cache weighs a value again only when new.
            kept.delete(key);
            kept.set(key, computed);
          },
          // Errors (404, 401) are not kept: the next request asks again.
          () => {
            if (kept.peek(key) === computed) kept.delete(key);
          },
        );
        entry = computed;
        reply.header('x-cache', 'miss');
      }
      kept.set(key, entry);
      const body = await entry.value;
      // The answer is sent here; Fastify takes the returned reply as "already sent". The type
      // parameter still makes the route's compute return what its response schema describes.
      return reply.type('application/json; charset=utf-8').send(body) as unknown as T;
    },
  };
}

/**
 * `countsAt`: what the kept rows' counts are current for; NaN, never current. Every kept row is
 * current at the part's generation `currentAt`: requests at a later one first drop the rows changed
 * since (`changed`), once for all of them, rather than read every page's rows again after an edit.
 */
function keptRows(
  readGenerations: ReadGenerations,
  part: LibraryPart,
  countsAt: (generations: Generations) => number,
  changed: ChangedRows = async () => null,
): KeptRows {
  const kept = new LRUCache<number, { row: { id: number }; counts: number }>({ max: MAX_KEPT_ROWS });
  let currentAt = Number.NaN;
  let catchingUp: Promise<void> | null = null;
  async function catchUp(now: number) {
    if (Number.isNaN(currentAt)) currentAt = now;
    while (currentAt < now) {
      catchingUp ??= changed(part, currentAt, now)
        .then((ids) => {
          if (ids === null) kept.clear();
          for (const id of ids ?? []) kept.delete(id);
          currentAt = Math.max(currentAt, now);
        })
        .finally(() => {
          catchingUp = null;
        });
      await catchingUp;
    }
  }
  return {
    async obtain(ids, read) {
      const generations = await generationsFor(readGenerations);
      const [generation, counts] = [generations[part], countsAt(generations)];
      if (Number.isNaN(currentAt) || currentAt < generation) await catchUp(generation);
      const found = new Map<number, { id: number }>();
      const missing: number[] = [];
      const staleCounts: number[] = [];
      for (const id of ids) {
        const entry = kept.get(id); // `get` makes it the most recently used
        if (!entry) missing.push(id);
        else {
          found.set(id, entry.row as never);
          if (entry.counts !== counts) staleCounts.push(id);
        }
      }
      // Side by side: the missing rows whole, the kept rows' counts alone.
      const [rows, fresh] = await Promise.all([
        missing.length > 0 ? read.rows(missing) : [],
        staleCounts.length > 0 ? read.counts(staleCounts) : [],
      ]);
      // Copies: a kept row is shared with other requests.
      const refreshed = fresh.map((row) => ({ ...found.get(row.id as number), ...row }) as { id: number });
      for (const row of [...rows, ...refreshed]) {
        found.set(row.id, row);
        // Read at `generation`: kept only if no raise since has been caught up with without it.
        if (generation >= currentAt) kept.set(row.id, { row, counts });
      }
      return found as never;
    },
  };
}
