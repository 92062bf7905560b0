/**
 * Group commit: callers add one item each and wait for it to be stored; `write` stores the items
 * queued meanwhile together, in one statement and one commit per batch. A batch starts `delayMs`
 * after its first item arrives (so others may join it), at once when `maxBatch` items wait, and
 * right after the batch before it when items queued while that one was written. One batch is
 * written at a time, so items are stored in the order they were added: a later batch never commits
 * before an earlier one, and within a batch `write` keeps the order it is given.
 *
 * A caller's promise settles only after its batch committed (or failed). When a batch of several
 * fails and `retryAlone(err)` says the items themselves may be at fault (a row a constraint
 * refuses), they are written again one at a time, in order: one bad item fails its own caller only
 * and the others are stored as if sent alone. Otherwise (the database is down) every caller of the
 * batch gets the error at once, rather than each waiting for its own failed attempt.
 */
export interface GroupCommitOptions<I, O> {
  /** Stores a batch in one commit; answers one result per item, in the order given. */
  write: (batch: I[]) => Promise<O[]>;
  /** How long a batch's first item waits for others (ms); 0 = until the event that added it is done. */
  delayMs: number;
  /** The most items in one batch. */
  maxBatch: number;
  /**
   * Whether a failed batch's items are worth writing one at a time (default: always). Say no to
   * errors that may come after the commit, or the items would be stored twice.
   */
  retryAlone?: (err: unknown) => boolean;
}

export interface GroupCommit<I, O> {
  /** Queues `item`; settles once its batch committed, with its result, or with the error. */
  add(item: I): Promise<O>;
  /** Writes what is queued now; items added after that are written without waiting. Resolves when all are written. */
  close(): Promise<void>;
}

interface Waiting<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (err: unknown) => void;
}

export function createGroupCommit<I, O>({
  write,
  delayMs,
  maxBatch,
  retryAlone = () => true,
}: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const queue: Waiting<I, O>[] = [];
  let writing: Promise<void> | null = null;
  /** Cancels the flush scheduled for the queue's first item, if any. */
  let cancelScheduled: (() => void) | null = null;
  let closed = false;

  async function writeBatch(batch: Waiting<I, O>[]): Promise<void> {
    let results: O[];
    try {
      results = await write(batch.map((w) => w.item));
    } catch (err) {
      if (batch.length === 1 || !retryAlone(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await writeBatch([w]);
      return;
    }
    // Never written again: the batch may have committed.
    const mismatch = new Error(`group commit: ${results.length} results for ${batch.length} items`);
    for (const [i, w] of batch.entries()) {
      if (results.length === batch.length) w.resolve(results[i] as O);
      else w.reject(mismatch);
    }
  }

  function flush() {
    cancelScheduled?.();
    cancelScheduled = null;
    if (writing || queue.length === 0) return;
    writing = writeBatch(queue.splice(0, maxBatch)).finally(() => {
      writing = null;
      // What queued meanwhile has waited a whole batch already: it goes next, once the events that
      // came in during the batch have run (an in-process database holds the thread while it writes).
      if (queue.length > 0) scheduleSoon();
    });
  }

  function schedule() {
    if (writing) return; // the batch under way flushes the queue when it ends
    if (closed || queue.length >= maxBatch) flush();
    else if (!cancelScheduled && delayMs > 0) {
      const timer = setTimeout(flush, delayMs);
      cancelScheduled = () => clearTimeout(timer);
    } else scheduleSoon();
  }

  /** Flushes after the events already waiting have run: callers woken together join one batch. */
  function scheduleSoon() {
    if (closed) return flush();
    if (cancelScheduled) return;
    const immediate = setImmediate(flush);
    cancelScheduled = () => clearImmediate(immediate);
  }

  return {
    add(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
    async close() {
      closed = true;
      flush();
      while (writing) await writing;
    },
  };
}
