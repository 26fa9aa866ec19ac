// One rank table, not the package: its full build bundles every encoding (megabytes).
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { cl100kTables, utf8Bytes, type Cl100kTables } from './byteRanks.ts';
import { mergedPartsOfLongPiece } from './longPieceMerge.ts';
import { MAX_SHORT_TOKEN_BYTES, shortTokenKey } from './shortTokenRanks.ts';
import { ShortPieceCounts } from './shortPieceCounts.ts';
import { TextCountCache } from './textCountCache.ts';

const MAX_CACHED_PIECES = 200_000;
/** Past this many bytes the scan's quadratic cost outgrows the heap's bookkeeping (bench: see the test). */
const LONG_PIECE_BYTES = 64;
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
  private tables: Cl100kTables | undefined;
  // Most pieces are short words: their counts sit in a table of doubles (shortPieceCounts.ts).
  private readonly shortPieces = new ShortPieceCounts();
  private readonly countShort = (piece: string): number => this.countPiece(piece);
  // A plain map for the rest, emptied when full: pieces recur so much that LRU bookkeeping on every hit costs more than it saves.
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
      const short = this.shortPieces.countOf(piece, this.countShort);
      if (short >= 0) {
        total += short;
        continue;
      }
      let count = this.pieces.get(piece);
      if (count === undefined) {
        count = this.countPiece(piece);
        if (piece.length <= 256) {
          if (this.pieces.size >= MAX_CACHED_PIECES) this.pieces.clear();
          this.pieces.set(piece, count);
        }
      }
      total += count;
    }
    return total;
  }

  /**
   * Tokens of one piece: byte-pair merging over the encoding's ranks, as `Tiktoken.encode` does it
   * for each piece it splits off. Called directly, not through `encode`: that builds two regular
   * expressions and three sets per call and re-splits the piece, several times the cost of merging
   * a word, and it rebuilt every pair's key at every merge. Same merges, same order (the lowest
   * rank, leftmost first), so the same count; the tests compare it with `encode` on every kind of text.
   * Bytes are Latin-1 characters (byteRanks.ts), so a part is a string and a merge a concatenation.
   */
  private countPiece(piece: string): number {
    const { ranks } = (this.tables ??= cl100kTables());
    const bytes = utf8Bytes(piece);
    if (bytes.length <= 1) return bytes.length;
    if (ranks.has(bytes)) return 1;
    if (bytes.length > LONG_PIECE_BYTES) return mergedPartsOfLongPiece(bytes, ranks);
    return mergedParts(bytes, this.tables);
  }
}

/**
 * How many parts byte-pair merging leaves of a piece: repeatedly join the adjacent pair of the
 * lowest rank (the leftmost of equals) until no adjacent pair has a rank. Each pair's rank is
 * looked up once and again only when a merge changes one of its sides. A part is the bytes from
 * its start to the next part's start; while it is at most six bytes long its bytes are also kept
 * packed into a number, so whether two parts join into a short token is a look-up in the typed
 * table (shortTokenRanks.ts), and only longer joins build a string for the rank Map. The parts
 * live in fixed scratch arrays, shifted in place: `splice` on three arrays per merge cost more than
 * the look-ups (issue 31).
 */
const starts = new Int32Array(LONG_PIECE_BYTES + 2);
const packed = new Float64Array(LONG_PIECE_BYTES + 1);
const pairRanks = new Float64Array(LONG_PIECE_BYTES);
/** 256 ** n for the lengths a short token's parts can have. */
const BYTE_POWERS = [1, 256, 65_536, 16_777_216, 4_294_967_296, 1_099_511_627_776, 281_474_976_710_656];

function mergedParts(bytes: string, tables: Cl100kTables): number {
  const { ranks, bytePairRanks, shortRanks } = tables;
  const byteCount = bytes.length;
  for (let index = 0; index < byteCount; index++) {
    starts[index] = index;
    packed[index] = bytes.charCodeAt(index);
  }
  starts[byteCount] = byteCount;
  const pairRank = (index: number): number => {
    const start = starts[index];
    const middle = starts[index + 1];
    const end = starts[index + 2];
    const length = end - start;
    if (length > MAX_SHORT_TOKEN_BYTES) return ranks.get(bytes.slice(start, end)) ?? Infinity;
    return shortRanks.rank(shortTokenKey(packed[index] * BYTE_POWERS[end - middle] + packed[index + 1], length));
  };
  // Before any merge every part is one byte, so the first ranks come from the two-byte table.
  let pairs = byteCount - 1;
  for (let index = 0; index < pairs; index++)
    pairRanks[index] = bytePairRanks[bytes.charCodeAt(index) * 256 + bytes.charCodeAt(index + 1)];
  while (pairs > 0) {
    let best = 0;
    for (let index = 1; index < pairs; index++) if (pairRanks[index] < pairRanks[best]) best = index;
    if (pairRanks[best] === Infinity) break;
    const rightLength = starts[best + 2] - starts[best + 1];
    // Past six bytes the packed number is never read again (pairRank goes to the Map), so it may lose precision.
    packed[best] = packed[best] * BYTE_POWERS[Math.min(rightLength, MAX_SHORT_TOKEN_BYTES)] + packed[best + 1];
    // Part best + 1 is gone: parts (and their starts, the end's included) after it move down one.
    for (let index = best + 1; index < pairs; index++) {
      packed[index] = packed[index + 1];
      starts[index] = starts[index + 1];
      pairRanks[index - 1] = pairRanks[index];
    }
    starts[pairs] = starts[pairs + 1];
    pairs -= 1;
    if (best < pairs) pairRanks[best] = pairRank(best);
    if (best > 0) pairRanks[best - 1] = pairRank(best - 1);
  }
  // Every part left is a byte or a merge the table ranks, so each is one token.
  return pairs + 1;
}
