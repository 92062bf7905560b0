/** A Map of at most `limit` entries that drops the least recently remembered first. */
export class RecentMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  /** Sets (or touches) `key` as the most recent entry; drops the oldest beyond the limit. */
  remember(key: K, value: V): this {
    // Map order is insertion order: re-inserting moves the key to the end.
    this.delete(key);
    this.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}
