/** How much an LruCache holds: entries, and optionally a total weight (characters, tokens). */
export interface LruBounds<K, V> {
  maxEntries: number;
  maxWeight?: number;
  weigh?: (key: K, value: V) => number;
}

/**
 * A small least-recently-used map: Map keeps insertion order, so re-inserting on read is enough.
 * With a weight bound, the least recently used entries go until both bounds hold, so a few large
 * values cannot pin megabytes.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly weigh: (key: K, value: V) => number;
  private held = 0;
  /**
   * Walks the keys oldest first and is kept between evictions. Deleting from a Map leaves a hole at
   * the front of its table until the table is rebuilt, so a fresh `for…of` from the start skipped
   * every hole left since: thousands per eviction in a full cache of 20,000 (8.7 µs a set). A Map
   * iterator stays valid across deletes and rebuilds and resumes where it stopped, so each hole is
   * passed once. Everything before its position has been evicted (a read re-inserts its key at the
   * end), so the next key it yields is the least recently used.
   */
  private oldestFirst: MapIterator<K> | undefined;

  constructor(bounds: LruBounds<K, V>) {
    this.maxEntries = bounds.maxEntries;
    this.maxWeight = bounds.maxWeight ?? Infinity;
    this.weigh = bounds.weigh ?? (() => 0);
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Without making the entry more recent. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.held += this.weigh(key, value);
    while (this.entries.size > 0 && (this.entries.size > this.maxEntries || this.held > this.maxWeight))
      this.delete(this.oldestKey());
  }

  private oldestKey(): K {
    let next = (this.oldestFirst ??= this.entries.keys()).next();
    // An iterator that reached the end stays there, even when keys are added later: start anew.
    if (next.done) next = (this.oldestFirst = this.entries.keys()).next();
    return next.value as K;
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.held -= this.weigh(key, value);
  }

  clear(): void {
    this.entries.clear();
    this.oldestFirst = undefined;
    this.held = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Total weight of the entries held. */
  get weight(): number {
    return this.held;
  }
}
