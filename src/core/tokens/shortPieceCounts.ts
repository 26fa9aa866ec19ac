/**
 * Token counts of short pieces (at most 12 characters, each below U+0100: most words with their
 * leading space) in one open-addressing table of doubles, keyed by the piece's characters packed
 * into two numbers. The counter's piece Map answered the same question, but in a server each look-up
 * of a new text's pieces missed the processor's caches several times (the Map's bucket, its entry,
 * the key string it compares): 6 % of an `add_to_working_memory` under `bench:load` was that Map's
 * look-up (issue 31). Here a look-up computes the key from the piece and reads one slot of three
 * neighbouring doubles. A count depends on the piece alone, so what the table keeps or drops
 * changes no count; it is emptied when half full, as the Map is emptied when full.
 */
const SLOT_BITS = 17;
const SLOTS = 1 << SLOT_BITS;
const MASK = SLOTS - 1;
/** Key (first six characters and the length), key (characters 7–12), count. */
const STRIDE = 3;
const HOLD = SLOTS / 2;
export const MAX_SHORT_PIECE_CHARS = 12;
const PACKED_CHARS = 6;
const TWO_32 = 2 ** 32;
/** The length rides above the first six characters' 48 bits, so "a" and "\0a" get different keys. */
const TWO_48 = 2 ** 48;

export class ShortPieceCounts {
  /** 2^17 slots of 24 bytes, allocated at the first count (zeroed pages cost no memory until written). */
  private entries: Float64Array | null = null;
  private held = 0;

  /** The piece's count: kept, or `count(piece)` kept now; -1 for a piece the table does not take. */
  countOf(piece: string, count: (piece: string) => number): number {
    const length = piece.length;
    if (length === 0 || length > MAX_SHORT_PIECE_CHARS) return -1;
    const split = length < PACKED_CHARS ? length : PACKED_CHARS;
    let first = 0;
    for (let index = 0; index < split; index++) {
      const code = piece.charCodeAt(index);
      if (code > 0xff) return -1;
      first = first * 256 + code;
    }
    let second = 0;
    for (let index = PACKED_CHARS; index < length; index++) {
      const code = piece.charCodeAt(index);
      if (code > 0xff) return -1;
      second = second * 256 + code;
    }
    first += length * TWO_48;
    const entries = (this.entries ??= new Float64Array(SLOTS * STRIDE));
    let slot = slotOf(first, second);
    for (; ; slot = (slot + 1) & MASK) {
      const at = slot * STRIDE;
      const held = entries[at];
      if (held === 0) break;
      if (held === first && entries[at + 1] === second) return entries[at + 2];
    }
    const tokens = count(piece);
    if (this.held >= HOLD) {
      entries.fill(0);
      this.held = 0;
      slot = slotOf(first, second);
    }
    const at = slot * STRIDE;
    entries[at] = first;
    entries[at + 1] = second;
    entries[at + 2] = tokens;
    this.held++;
    return tokens;
  }

  /** Pieces held now (tests). */
  get size(): number {
    return this.held;
  }
}

/** Both keys' 32-bit halves mixed (each key is below 2^53, so its halves are exact). */
function slotOf(first: number, second: number): number {
  let hash = Math.imul((first >>> 0) ^ Math.imul((first / TWO_32) >>> 0, 0x85ebca77), 0x9e3779b1);
  hash ^= Math.imul((second >>> 0) ^ Math.imul((second / TWO_32) >>> 0, 0xc2b2ae3d), 0x27d4eb2f);
  hash ^= hash >>> 15;
  return Math.imul(hash, 0x2c1b3c6d) >>> (32 - SLOT_BITS);
}
