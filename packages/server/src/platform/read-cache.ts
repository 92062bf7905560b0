import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from './clock.ts';
import { RecentMap } from './recent-map.ts';

/**
 * Short-lived answers of the library's read calls (GET /files, /playlists, /series, ...).
 *
 * Browsing asks for the same first pages over and over, and computing one costs 1-6 ms of
 * database time: on two cores that caps the server near 900 lists a second. A kept answer is
 * given again while both hold:
 *  - the library generation is the one it was computed at. Statement triggers raise it in the
 *    transaction of every write the answers can depend on (migration 0001), so a change made
 *    through any server process, the admin command or psql shows on the next request;
 *  - it is younger than `ttlMs`. That bounds what changes without a write: the clock (release
 *    dates, the expiry of signed media URLs) and nothing else.
 * Answers are kept per viewer: anonymous viewers share theirs; a signed-in viewer has their own,
 * because locks, private files, ratings and progress depend on who asks.
 * Concurrent requests for an answer that is being computed wait for that computation.
 */
export interface ReadCache {
  /** The answer of a GET route for this viewer and query: kept, or computed by `compute`. */
  answer<T>(req: FastifyRequest, reply: FastifyReply, compute: () => Promise<T>): Promise<T>;
}

interface Kept {
  generation: number;
  computedAt: number;
  body: Promise<ReturnType<FastifyReply['serialize']>>;
  /** The body's length once computed (0 while computing). */
  characters: number;
}

export function createReadCache(opts: {
  /** libraryGenerationReader (db/library-generation.ts): concurrent requests share its reads. */
  readGeneration: () => Promise<number>;
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
  /**
   * Bounds the memory of kept bodies (their total length): without it, a thousand distinct
   * requests for large pages could hold gigabytes. A body longer than this is not kept.
   */
  maxCharacters: number;
}): ReadCache {
  const { ttlMs, maxEntries, maxCharacters } = opts;
  if (ttlMs <= 0) return { answer: (_req, _reply, compute) => compute() };

  const kept = new RecentMap<string, Kept>(maxEntries, {
    weigh: (entry) => entry.characters,
    maxWeight: maxCharacters,
  });
  let newestGeneration = 0;

  async function generationNow(): Promise<number> {
    const generation = await opts.readGeneration();
    // Everything kept is from an older generation now: free it at once.
    if (generation > newestGeneration) {
      newestGeneration = generation;
      kept.clear();
    }
    return generation;
  }

  return {
    async answer<T>(req: FastifyRequest, reply: FastifyReply, compute: () => Promise<T>): Promise<T> {
      const key = `${req.user?.id ?? 'anonymous'} ${req.routeOptions.url} ${JSON.stringify(req.query)}`;
      const generation = await generationNow();
      const now = opts.clock.now().getTime();
      let entry = kept.get(key);
      // A clock moved backwards (tests) counts as old too.
      if (entry && entry.generation === generation && Math.abs(now - entry.computedAt) < ttlMs) {
        reply.header('x-cache', 'hit');
      } else {
        const computed: Kept = {
          generation,
          computedAt: now,
          // Kept as written by the route's serializer (from its response schema), so a kept
          // answer is only sent, not serialised again.
          body: compute().then((answer) => reply.serialize(answer)),
          characters: 0,
        };
        computed.body.then(
          (body) => {
            if (kept.get(key) !== computed) return;
            computed.characters = typeof body === 'string' ? body.length : body.byteLength;
            kept.remember(key, computed); // weighed again, now with its length
          },
          // Errors (404, 401) are not kept: the next request asks again.
          () => {
            if (kept.get(key) === computed) kept.delete(key);
          },
        );
        entry = computed;
        reply.header('x-cache', 'miss');
      }
      kept.remember(key, entry);
      const body = await entry.body;
      // The answer is sent here; Fastify takes the returned reply as "already sent". The type
      // parameter still makes the route's compute return what its response schema describes.
      return reply.type('application/json; charset=utf-8').send(body) as unknown as T;
    },
  };
}
