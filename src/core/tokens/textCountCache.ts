import { LruCache } from '../util/lruCache.ts';

/**
 * Token counts of whole texts, least recently used dropped first, bounded by entries and by the
 * characters held (a few long texts must not pin megabytes). Context assembly counts the same
 * neutralised memories call after call, and a hit skips splitting the text into pieces at all.
 */
export class TextCountCache {
  private readonly entries: LruCache<string, number>;
  private readonly maxTextChars: number;

  constructor(options: { maxEntries: number; maxChars: number; maxTextChars: number }) {
    this.entries = new LruCache({
      maxEntries: options.maxEntries,
      maxWeight: options.maxChars,
      weigh: (text) => text.length,
    });
    this.maxTextChars = options.maxTextChars;
  }

  get(text: string): number | undefined {
    return this.entries.get(text);
  }

  set(text: string, count: number): void {
    if (text.length > this.maxTextChars || this.entries.has(text)) return;
    this.entries.set(text, count);
  }

  get size(): number {
    return this.entries.size;
  }

  get heldChars(): number {
    return this.entries.weight;
  }
}
