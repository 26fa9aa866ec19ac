/**
 * Token counts of whole texts, least recently used dropped first, bounded by entries and by the
 * characters held (a few long texts must not pin megabytes). Context assembly counts the same
 * neutralised memories call after call, and a hit skips splitting the text into pieces at all.
 */
export class TextCountCache {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly maxTextChars: number;
  private chars = 0;

  constructor(options: { maxEntries: number; maxChars: number; maxTextChars: number }) {
    this.maxEntries = options.maxEntries;
    this.maxChars = options.maxChars;
    this.maxTextChars = options.maxTextChars;
  }

  get(text: string): number | undefined {
    const count = this.entries.get(text);
    if (count !== undefined) {
      // Map keeps insertion order: re-inserting moves the text to the most recent end.
      this.entries.delete(text);
      this.entries.set(text, count);
    }
    return count;
  }

  set(text: string, count: number): void {
    if (text.length > this.maxTextChars || this.entries.has(text)) return;
    this.entries.set(text, count);
    this.chars += text.length;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get heldChars(): number {
    return this.chars;
  }
}
