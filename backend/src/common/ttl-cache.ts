/**
 * What a hot path (a gate's scans) keeps of a database read, so that it does not read the rows per
 * request: a map whose entries expire, bounded in size.
 * - An entry answers for `ttlMs` from the start of the read that produced it, so an edit made on
 *   another instance (which this one does not hear of) counts here within `ttlMs` of its commit.
 * - At most `max` entries (when given): storing one more drops the oldest stored.
 * - The overtaken read: `load` keeps what it read only if no `delete`, `deleteWhere` or `clear`
 *   happened since the read began. A read under way when an edit on this instance removed entries
 *   may have read the rows before the edit; kept, it would answer them for `ttlMs` although the
 *   edit was made here. One counter for every removal, not one per key: `deleteWhere` cannot know
 *   which key a read under way will produce.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  /** counts the removals: a read begun before the last one is answered but not kept */
  private removals = 0;
  private readonly max: number;

  constructor(private readonly options: { ttlMs: number; max?: number }) {
    this.max = options.max ?? Number.POSITIVE_INFINITY;
    if (!(this.max >= 1)) throw new RangeError(`TtlCache: max must be at least 1 (${options.max})`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key` while it has not expired. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    // an expiry is not a removal: reads under way are still kept
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The entry of `key`, or `read()`'s answer, stored unless something was removed while it read.
   * A read that throws (the row is gone) also drops the key's entry, without counting as a removal.
   */
  async load(key: K, read: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const removals = this.removals;
    const started = Date.now();
    let value: V;
    try {
      value = await read();
    } catch (err) {
      this.entries.delete(key);
      throw err;
    }
    if (removals === this.removals) {
      this.entries.delete(key); // stored again: now the newest
      while (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, { value, until: started + this.options.ttlMs });
    }
    return value;
  }

  delete(key: K): void {
    this.removals++;
    this.entries.delete(key);
  }

  /** Removes every entry for which `drop` is true (a template's devices, a subject's tokens). */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    this.removals++;
    for (const [key, entry] of this.entries) if (drop(entry.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.removals++;
    this.entries.clear();
  }
}
