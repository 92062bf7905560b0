import type { FastifyBaseLogger } from 'fastify';
import { addServedRange, MAX_SERVED_RANGES, type ServedRanges } from './served-ranges.ts';

/** Audio one session was served by this process and not yet stored, as its requests had it. */
export interface PendingServed {
  /** The user who asked for it (null: nobody signed in). */
  userId: number | null;
  fileId: number;
  audioSize: number;
  ranges: ServedRanges;
}

/** Pending audio is stored about this often (decision 033). */
export const FLUSH_EVERY_MS = 1000;
/** A session with this many separate pending stretches (many seeks: as many as a session keeps) is stored at once. */
export const FLUSH_AT_RANGES = MAX_SERVED_RANGES;
/** With this many sessions pending, everything is stored at once: memory stays bounded. */
export const FLUSH_AT_SESSIONS = 1000;

/**
 * Served audio kept in memory by the session's token hash, merged there and stored in batches by
 * `store` (one call per session), so a range request never waits on the database (decision 033).
 * A failed store is logged with the last request that served that session and its bytes are
 * dropped: the session earns less, never more.
 */
export function createServedAudioBuffer(
  store: (tokenHash: string, pending: PendingServed[]) => Promise<void>,
) {
  const pending = new Map<string, { served: PendingServed[]; log: FastifyBaseLogger }>();
  // A session's stores run one after another, in the order its bytes were served.
  const storing = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let flushAgain = false;

  /** Stores what is pending for the session, after any store of it already under way. */
  function storeSession(tokenHash: string): Promise<void> {
    const entry = pending.get(tokenHash);
    const before = storing.get(tokenHash) ?? Promise.resolve();
    if (!entry) return before;
    pending.delete(tokenHash);
    const done = before
      .then(() => store(tokenHash, entry.served))
      .catch((err: unknown) => entry.log.error({ err }, 'recording served audio failed'))
      .finally(() => {
        if (storing.get(tokenHash) === done) storing.delete(tokenHash);
      });
    storing.set(tokenHash, done);
    return done;
  }

  /** Stores every pending session, all at once (the store may send them in one statement). */
  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (flushing) {
      flushAgain = true;
      return flushing;
    }
    flushing = (async () => {
      do {
        flushAgain = false;
        await Promise.all([...pending.keys()].map(storeSession));
      } while (flushAgain);
      await Promise.all(storing.values());
      flushing = undefined;
    })();
    return flushing;
  }

  return {
    /** Keeps the bytes `start`–`end` served to `request` under the session, merged with its other pending bytes. */
    add(
      tokenHash: string,
      request: Omit<PendingServed, 'ranges'> & { start: number; end: number; log: FastifyBaseLogger },
    ): void {
      const entry = pending.get(tokenHash) ?? { served: [], log: request.log };
      pending.set(tokenHash, entry);
      entry.log = request.log;
      let served = entry.served.find(
        (s) =>
          s.userId === request.userId && s.fileId === request.fileId && s.audioSize === request.audioSize,
      );
      if (!served) {
        served = { userId: request.userId, fileId: request.fileId, audioSize: request.audioSize, ranges: [] };
        entry.served.push(served);
      }
      served.ranges = addServedRange(served.ranges, request.start, request.end);

      if (pending.size >= FLUSH_AT_SESSIONS) void flush();
      else if (entry.served.reduce((n, s) => n + s.ranges.length, 0) >= FLUSH_AT_RANGES) {
        void storeSession(tokenHash);
      }
      timer ??= setTimeout(() => void flush(), FLUSH_EVERY_MS).unref();
    },

    /** Stores the session's pending bytes and waits for any store of them under way. */
    storeSession,

    /** Stores everything pending; never rejects (failures are logged). */
    flush,
  };
}
