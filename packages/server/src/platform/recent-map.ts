/**
 * A Map of at most `limit` entries that drops the least recently remembered first. With `weigh`,
 * it also keeps the entries' total weight (bytes, say) within `maxWeight`: an entry heavier than
 * that on its own is not kept at all. Add entries with `remember`, which keeps those bounds.
 */
export class RecentMap<K, V> extends Map<K, V> {
  private readonly weights = new Map<K, number>();
  private totalWeight = 0;

  constructor(
    private readonly limit: number,
    private readonly budget?: { weigh: (value: V) => number; maxWeight: number },
  ) {
    super();
  }

  /** Sets (or touches) `key` as the most recent entry; drops the oldest beyond the bounds. */
  remember(key: K, value: V): this {
    // Map order is insertion order: re-inserting moves the key to the end.
    this.delete(key);
    const weight = this.budget?.weigh(value) ?? 0;
    if (this.budget && weight > this.budget.maxWeight) return this;
    super.set(key, value);
    this.weights.set(key, weight);
    this.totalWeight += weight;
    while (this.size > this.limit || (this.budget && this.totalWeight > this.budget.maxWeight)) {
      this.delete(this.keys().next().value as K);
    }
    return this;
  }

  override delete(key: K): boolean {
    this.totalWeight -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
    return super.delete(key);
  }

  override clear(): void {
    this.weights.clear();
    this.totalWeight = 0;
    super.clear();
  }
}
