import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Generations } from '../db/library-generation.ts';
import type { Viewer } from './access.repo.ts';
import type { Clock } from './clock.ts';

/**
 * Short-lived answers of the library's read calls (GET /files, /playlists, /series, ...), and the
 * totals, first rows and full rows of paged lists, and small lookups: what the server keeps of the
 * library between requests.
 *
 * Browsing asks for the same first pages over and over, and computing one costs 1-6 ms of
 * database time: on two cores that caps the server near 900 lists a second. A kept answer is
 * given again while all hold:
 *  - the library generation is the one it was computed at. Statement triggers raise it in the
 *    transaction of every write to what everyone sees (migrations 0001, 0004), so a change made
 *    through any server process, the admin command or psql shows on the next request;
 *  - for a signed-in viewer, their own generation is too: row triggers raise it with their
 *    ratings, favourites, plan progress and trained triggers, and only theirs. Another user's like
 *    changes nothing kept but that user's answers;
 *  - it is younger than `ttlMs`. That bounds what changes without either: the clock (release
 *    dates, the expiry of signed media URLs), play counts and the like, dislike and favourite
 *    counts of playlists.
 * Answers are kept per viewer: anonymous viewers share theirs; a signed-in viewer has their own,
 * because locks, private files, ratings and progress depend on who asks.
 * Concurrent requests for an answer that is being computed wait for that computation.
 */
export interface ReadCache {
  /**
   * The answer of a GET route for this query and viewer: kept, or computed by `compute`. `viewer`:
   * the viewer the answer is computed for when it is not the request's user, such as a list
   * viewer of access.listViewer; without an id, the answer is shared by everyone with its tiers
   * and setting.
   */
  answer<T>(req: FastifyRequest, reply: FastifyReply, compute: () => Promise<T>, viewer?: Viewer): Promise<T>;
  /** Totals of paged lists by filter (db/row-count.ts). */
  totals: KeptTotals;
  /** The first rows of lists by filter and order (modules/files/files.repo.ts). */
  orders: KeptOrders;
  /** Small answers by key, exact while the library is unchanged (modules/media/media.routes.ts). */
  lookups: KeptLookups;
  /** Full rows by id, of the files lists show (modules/files/files.repo.ts). */
  rows: KeptRows;
}

/**
 * Totals by filter (the count statement's text and parameters, which include the viewer's part).
 * A total stays valid while the generations it was counted at are current; after a change, one of
 * `exactLimit` or more stays valid up to a minute from its count (counting 100,000 rows again with
 * every change would cost more than a long list's total a minute old).
 */
export interface KeptTotals {
  /**
   * The total kept for `key`, if still valid, and `keep` to remember a new count. `viewerId`: the
   * user whose own data (their favourites, say) the filter reads, if any.
   */
  find(
    key: string,
    opts: { viewerId: number | null; exactLimit: number },
  ): Promise<{ total: number | undefined; keep: (total: number) => void }>;
}

/**
 * The ids of the first rows of a list by its filter and order (the statement's text and
 * parameters, which include the viewer's part), so that its first pages are slices of them: a
 * page asked for the first time costs the rows of its ids, not a walk of the filter's matches.
 * An order stays valid while the generations it was read at are current, like a total. An order
 * by what changes without raising them (play counts: `changesUnseen`) also at most `ttlMs`, as
 * kept answers, and not at all when keeping answers is off.
 */
export interface KeptOrders {
  /** The ids kept for `key`, if still valid, and `keep` to remember the ids just read. */
  find(
    key: string,
    opts: { viewerId: number | null; changesUnseen: boolean },
  ): Promise<{ ids: readonly number[] | undefined; keep: (ids: readonly number[]) => void }>;
}

/**
 * Small answers of the database by key (whether a viewer may play a file, say): valid while the
 * library generation they were read at is current, so they may read only what raises it.
 */
export interface KeptLookups {
  /** The value kept for `key`, if still valid, and `keep` to remember a new one. */
  find<T>(key: string): Promise<{ value: T | undefined; keep: (value: T) => void }>;
}

/**
 * Full rows of one table by id (the files of list pages), shared by every viewer: which rows a
 * viewer may see is the filter's business, not the row's. Valid while the library generation they
 * were read at is current. What changes without raising it (play counts) the caller reads fresh.
 */
export interface KeptRows {
  /** The rows of `ids` kept and valid, and `keep` to remember rows just read. */
  find(ids: readonly number[]): Promise<{
    rows: Map<number, unknown>;
    keep: (rows: readonly { id: number }[]) => void;
  }>;
}

/** After a change, totals of `exactLimit` or more are counted again at most once a minute. */
const LARGE_TOTAL_MS = 60_000;
const MAX_KEPT_TOTALS = 2000;
/** Lists whose first rows are kept (at most a few hundred ids each: KEPT_ORDER_ROWS of files.repo.ts). */
const MAX_KEPT_ORDERS = 5000;
const MAX_KEPT_LOOKUPS = 5000;
/** Full file rows (1-2 KB each with their triggers and tags): about 10-20 MB. */
const MAX_KEPT_ROWS = 10_000;

interface Kept {
  generations: Generations;
  computedAt: number;
  body: Promise<ReturnType<FastifyReply['serialize']>>;
  /** The body's length once computed (0 while computing). */
  characters: number;
}

interface KeptTotal {
  total: number;
  generations: Generations;
  countedAt: number;
}

interface KeptOrder {
  ids: readonly number[];
  generations: Generations;
  readAt: number;
}

interface KeptLookup {
  value: unknown;
  library: number;
}

interface KeptRow {
  row: unknown;
  library: number;
}

/** Who shares a kept answer: one user, or everyone who sees the library as `viewer` does. */
function whoseAnswer(viewerId: number | null, viewer: Viewer | undefined): string {
  if (viewerId !== null) return `user ${viewerId}`;
  if (!viewer) return 'anonymous';
  return `audience ${JSON.stringify([viewer.readsAllFiles, [...viewer.entitledTierIds].sort(), viewer.hideLockedFiles])}`;
}

const sameGenerations = (a: Generations, b: Generations) => a.library === b.library && a.viewer === b.viewer;

type ReadGenerations = (viewerId: number | null) => Promise<Generations>;

/**
 * The generations an answer being computed was keyed by, for the totals and orders it looks up:
 * they are as valid for those as for the answer (what is read afterwards is at least as new), and
 * a second read would cost each computed answer another round trip. `read` tells the database.
 */
const answering = new AsyncLocalStorage<{
  read: ReadGenerations;
  viewerId: number | null;
  generations: Generations;
}>();

/** The generations of the answer being computed, if it is for this database and viewer; else read. */
function generationsFor(read: ReadGenerations, viewerId: number | null): Promise<Generations> {
  const current = answering.getStore();
  if (current?.read === read) {
    if (current.viewerId === viewerId) return Promise.resolve(current.generations);
    // An anonymous filter within a signed-in viewer's answer: the library generation is the same.
    if (viewerId === null) return Promise.resolve({ library: current.generations.library, viewer: 0 });
  }
  return read(viewerId);
}

export function createReadCache(opts: {
  /** generationsReader (db/library-generation.ts): concurrent requests share its reads. */
  readGenerations: (viewerId: number | null) => Promise<Generations>;
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
  /**
   * Bounds the memory of kept bodies (their total length): without it, a thousand distinct
   * requests for large pages could hold gigabytes. A body longer than this is not kept.
   */
  maxCharacters: number;
}): ReadCache {
  const { ttlMs, maxEntries, maxCharacters, clock } = opts;
  const totals = keptTotals(opts.readGenerations, clock);
  const orders = keptOrders(opts.readGenerations, clock, ttlMs);
  const lookups = keptLookups(opts.readGenerations);
  const rows = keptRows(opts.readGenerations);
  if (ttlMs <= 0) return { answer: (_req, _reply, compute) => compute(), totals, orders, lookups, rows };

  const kept = new LRUCache<string, Kept>({
    max: maxEntries,
    // An answer still being computed weighs 1 (lru-cache wants a positive size) until its length is known.
    sizeCalculation: (entry) => Math.max(1, entry.characters),
    maxSize: maxCharacters,
    maxEntrySize: maxCharacters,
  });
  let newestLibrary = 0;

  async function generationsNow(viewerId: number | null): Promise<Generations> {
    const generations = await opts.readGenerations(viewerId);
    // Everything kept is from an older library generation now: free it at once.
    if (generations.library > newestLibrary) {
      newestLibrary = generations.library;
      kept.clear();
    }
    return generations;
  }

  return {
    totals,
    orders,
    lookups,
    rows,
    async answer<T>(
      req: FastifyRequest,
      reply: FastifyReply,
      compute: () => Promise<T>,
      viewer?: Viewer,
    ): Promise<T> {
      const viewerId = viewer ? viewer.id : (req.user?.id ?? null);
      const key = `${whoseAnswer(viewerId, viewer)} ${req.routeOptions.url} ${JSON.stringify(req.query)}`;
      const generations = await generationsNow(viewerId);
      const now = clock.now().getTime();
      let entry = kept.get(key);
      // A clock moved backwards (tests) counts as old too.
      if (
        entry &&
        sameGenerations(entry.generations, generations) &&
        Math.abs(now - entry.computedAt) < ttlMs
      ) {
        reply.header('x-cache', 'hit');
      } else {
        const computed: Kept = {
          generations,
          computedAt: now,
          // Kept as written by the route's serializer (from its response schema), so a kept
          // answer is only sent, not serialised again.
          body: answering
            .run({ read: opts.readGenerations, viewerId, generations }, compute)
            .then((answer) => reply.serialize(answer)),
          characters: 0,
        };
        computed.body.then(
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
      const body = await entry.body;
      // The answer is sent here; Fastify takes the returned reply as "already sent". The type
      // parameter still makes the route's compute return what its response schema describes.
      return reply.type('application/json; charset=utf-8').send(body) as unknown as T;
    },
  };
}

function keptTotals(readGenerations: ReadGenerations, clock: Clock): KeptTotals {
  const kept = new LRUCache<string, KeptTotal>({ max: MAX_KEPT_TOTALS });
  return {
    async find(key, { viewerId, exactLimit }) {
      const generations = await generationsFor(readGenerations, viewerId);
      const now = clock.now().getTime();
      const entry = kept.get(key);
      const valid =
        entry &&
        (sameGenerations(entry.generations, generations) ||
          (entry.total >= exactLimit && Math.abs(now - entry.countedAt) < LARGE_TOTAL_MS));
      return {
        total: valid ? entry.total : undefined,
        keep: (total) => kept.set(key, { total, generations, countedAt: now }),
      };
    },
  };
}

function keptOrders(readGenerations: ReadGenerations, clock: Clock, ttlMs: number): KeptOrders {
  const kept = new LRUCache<string, KeptOrder>({ max: MAX_KEPT_ORDERS });
  const notKept = { ids: undefined, keep: () => {} };
  return {
    async find(key, { viewerId, changesUnseen }) {
      if (changesUnseen && ttlMs <= 0) return notKept;
      const generations = await generationsFor(readGenerations, viewerId);
      const now = clock.now().getTime();
      const entry = kept.get(key);
      // A clock moved backwards (tests) counts as old too.
      const valid =
        entry &&
        sameGenerations(entry.generations, generations) &&
        (!changesUnseen || Math.abs(now - entry.readAt) < ttlMs);
      if (entry && !valid) kept.delete(key);
      return {
        ids: valid ? entry.ids : undefined,
        keep: (ids) => kept.set(key, { ids, generations, readAt: now }),
      };
    },
  };
}

function keptLookups(readGenerations: ReadGenerations): KeptLookups {
  const kept = new LRUCache<string, KeptLookup>({ max: MAX_KEPT_LOOKUPS });
  return {
    async find<T>(key: string) {
      const { library } = await generationsFor(readGenerations, null);
      const entry = kept.get(key);
      const valid = entry?.library === library;
      return {
        value: valid ? (entry.value as T) : undefined,
        keep: (value: T) => kept.set(key, { value, library }),
      };
    },
  };
}

function keptRows(readGenerations: ReadGenerations): KeptRows {
  const kept = new LRUCache<number, KeptRow>({ max: MAX_KEPT_ROWS });
  return {
    async find(ids) {
      const { library } = await generationsFor(readGenerations, null);
      const rows = new Map<number, unknown>();
      for (const id of ids) {
        const entry = kept.get(id);
        if (entry?.library === library) {
          rows.set(id, entry.row); // `get` made it the most recently used
        }
      }
      return {
        rows,
        keep: (read) => {
          for (const row of read) kept.set(row.id, { row, library });
        },
      };
    },
  };
}
