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
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.held <= this.maxWeight) break;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.held -= this.weigh(key, value);
  }

  clear(): void {
    this.entries.clear();
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
