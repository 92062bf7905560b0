import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store that numbers what it is given, keeps each batch, and can be made to fail or stall. */
function fakeStore(opts: { failWhen?: (batch: string[]) => boolean; holdMs?: number } = {}) {
  const batches: string[][] = [];
  let next = 1;
  return {
    batches,
    async write(batch: string[]): Promise<number[]> {
      batches.push([...batch]);
      if (opts.holdMs) await sleep(opts.holdMs);
      if (opts.failWhen?.(batch)) throw new Error(`refused ${batch.join(',')}`);
      return batch.map(() => next++);
    },
  };
}

describe('group commit', () => {
  it('stores items added together in one batch, in the order added, and answers each its own result', async () => {
    const store = fakeStore();
    const commit = createGroupCommit({ write: store.write, delayMs: 5, maxBatch: 100 });
    const answered: string[] = [];
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (item) => {
        const id = await commit.add(item);
        answered.push(item);
        return id;
      }),
    );
    expect(store.batches).toEqual([['a', 'b', 'c', 'd']]);
    expect(results).toEqual([1, 2, 3, 4]);
    expect(answered).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes one batch at a time: what arrives meanwhile is the next batch, written right after', async () => {
    const store = fakeStore({ holdMs: 20 });
    const commit = createGroupCommit({ write: store.write, delayMs: 1, maxBatch: 100 });
    const first = commit.add('a');
    await sleep(5); // 'a' is being written
    const later = ['b', 'c', 'd'].map((item) => commit.add(item));
    expect(store.batches).toEqual([['a']]);
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(store.batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('holds at most maxBatch items in a batch, and starts a full batch without waiting', async () => {
    const store = fakeStore();
    const commit = createGroupCommit({ write: store.write, delayMs: 60_000, maxBatch: 3 });
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    // The first batch goes once full; the rest queued while it was written, so they follow it at
    // once, in batches of at most three, without waiting for the delay.
    expect(await Promise.all(items.map((item) => commit.add(item)))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(store.batches).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
  });

  it('waits delayMs for a batch to fill, then writes it', async () => {
    const store = fakeStore();
    const commit = createGroupCommit({ write: store.write, delayMs: 30, maxBatch: 100 });
    const a = commit.add('a');
    await sleep(10);
    const b = commit.add('b');
    expect(store.batches).toEqual([]);
    expect(await Promise.all([a, b])).toEqual([1, 2]);
    expect(store.batches).toEqual([['a', 'b']]);
  });

  it('without a delay, still batches what one event adds', async () => {
    const store = fakeStore();
    const commit = createGroupCommit({ write: store.write, delayMs: 0, maxBatch: 100 });
    expect(await Promise.all(['a', 'b', 'c'].map((item) => commit.add(item)))).toEqual([1, 2, 3]);
    expect(store.batches).toEqual([['a', 'b', 'c']]);
  });

  it('answers the error to its caller when a batch fails, rather than leaving it waiting', async () => {
    const commit = createGroupCommit({
      write: async () => {
        throw new Error('database down');
      },
      delayMs: 1,
      maxBatch: 100,
      retryAlone: () => false,
    });
    const added = ['a', 'b', 'c'].map((item) => commit.add(item));
    for (const p of added) await expect(p).rejects.toThrow('database down');
  });

  it('writes a failed batch again item by item, in order, so one bad item fails alone', async () => {
    const store = fakeStore({ failWhen: (batch) => batch.includes('bad') });
    const commit = createGroupCommit({ write: store.write, delayMs: 5, maxBatch: 100 });
    const added = ['a', 'bad', 'c'].map((item) => commit.add(item));
    await expect(added[0]).resolves.toBe(1);
    await expect(added[1]).rejects.toThrow('refused bad');
    await expect(added[2]).resolves.toBe(2);
    expect(store.batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('does not retry item by item when retryAlone says the items are not at fault', async () => {
    const store = fakeStore({ failWhen: () => true });
    const commit = createGroupCommit({
      write: store.write,
      delayMs: 5,
      maxBatch: 100,
      retryAlone: () => false,
    });
    const added = ['a', 'b'].map((item) => commit.add(item));
    await Promise.allSettled(added);
    expect(store.batches).toEqual([['a', 'b']]);
  });

  it('answers an error when the store answers the wrong number of results', async () => {
    const commit = createGroupCommit({
      write: async () => [1],
      delayMs: 1,
      maxBatch: 100,
      retryAlone: () => false,
    });
    const added = ['a', 'b'].map((item) => commit.add(item));
    for (const p of added) await expect(p).rejects.toThrow('1 results for 2 items');
  });

  it('on close, writes what is queued without waiting, and what comes after at once', async () => {
    const store = fakeStore();
    const commit = createGroupCommit({ write: store.write, delayMs: 60_000, maxBatch: 100 });
    const queued = ['a', 'b'].map((item) => commit.add(item));
    await commit.close();
    expect(store.batches).toEqual([['a', 'b']]);
    expect(await Promise.all(queued)).toEqual([1, 2]);
    await expect(commit.add('c')).resolves.toBe(3);
  });

  it('close waits for the batch under way and the ones queued behind it', async () => {
    const store = fakeStore({ holdMs: 20 });
    const commit = createGroupCommit({ write: store.write, delayMs: 1, maxBatch: 100 });
    const first = commit.add('a');
    await sleep(5);
    const second = commit.add('b');
    await commit.close();
    expect(store.batches).toEqual([['a'], ['b']]);
    let settled = false;
    void Promise.all([first, second]).then(() => {
      settled = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
  });
});
