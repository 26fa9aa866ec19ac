// The lite build plus one rank table: the full package bundles every encoding (megabytes).
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { TextCountCache } from './textCountCache.ts';

const MAX_CACHED_PIECES = 200_000;
/** Whole texts: about 16 MB of UTF-16 at most; a text over 64 KB is rare enough to count each time. */
const WHOLE_TEXTS = { maxEntries: 20_000, maxChars: 8_000_000, maxTextChars: 65_536 };

export interface TokenCounter {
  count(text: string): number;
}

/**
 * cl100k_base counts (seed 000 §13.1). tiktoken splits text with the encoding's pattern and runs
 * byte-pair merging on each piece on its own, so a text's count is the sum of its pieces' counts:
 * pieces (mostly words) recur across memories, and caching them makes counting a context of new
 * memories cheap while staying exact. Whole texts recur too (a memory is packed into context
 * call after call), so their counts are kept as well. The rank table is loaded on first use.
 */
export class TiktokenCounter implements TokenCounter {
  private encoder: Tiktoken | undefined;
  // A plain map, emptied when full: pieces recur so much that LRU bookkeeping on every hit costs more than it saves.
  private readonly pieces = new Map<string, number>();
  private readonly pattern = new RegExp(cl100kBase.pat_str, 'gu');
  private readonly texts = new TextCountCache(WHOLE_TEXTS);

  count(text: string): number {
    if (text.length === 0) return 0;
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    const total = this.countPieces(text);
    this.texts.set(text, total);
    return total;
  }

  private countPieces(text: string): number {
    let total = 0;
    // match() gives the pieces alone; matchAll would build a match object (index, input, groups) per piece.
    for (const piece of text.match(this.pattern) ?? []) {
      let count = this.pieces.get(piece);
      if (count === undefined) {
        this.encoder ??= new Tiktoken(cl100kBase);
        count = this.encoder.encode(piece, [], []).length;
        if (piece.length <= 256) {
          if (this.pieces.size >= MAX_CACHED_PIECES) this.pieces.clear();
          this.pieces.set(piece, count);
        }
      }
      total += count;
    }
    return total;
  }
}
