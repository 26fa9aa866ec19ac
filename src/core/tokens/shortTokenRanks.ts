/**
 * The ranks of cl100k_base's tokens of three to six bytes (about 55,000 of its 100,000) in an
 * open-addressing table of typed arrays, keyed by the token's bytes packed into one number. Byte-pair
 * merging asks, merge after merge, whether two adjacent parts join into a token: asked of the rank
 * Map, each question built a new string, hashed it and compared it with a key string elsewhere in
 * the heap. Here the joined key is arithmetic on the parts' packed bytes and the probe reads two
 * arrays (issue 31: 70 % of counting a piece the caches do not hold was that Map look-up). Fixed
 * size: 2^17 slots, 1.5 MB, built once with the rank Map.
 */
export const MAX_SHORT_TOKEN_BYTES = 6;
const SLOT_BITS = 17;
const SLOTS = 1 << SLOT_BITS;
const MASK = SLOTS - 1;
const EMPTY = 0;
const TWO_32 = 2 ** 32;

/**
 * A part's bytes as a number: `1` then each byte, base 256 (the leading 1 keeps "\0a" apart from
 * "a"). At most six bytes, so at most 2^56: exact in a double only up to 2^53, hence callers keep
 * `packed` below 2^48 and add the marker here.
 */
export function shortTokenKey(packed: number, length: number): number {
  return packed + 256 ** length;
}

export class ShortTokenRanks {
  private readonly keys = new Float64Array(SLOTS);
  private readonly ranks = new Int32Array(SLOTS);

  constructor(tokens: ReadonlyMap<string, number>) {
    let held = 0;
    // forEach, not for…of: an entry array per token grew the young generation by ~9 MB of RSS.
    tokens.forEach((rank, bytes) => {
      if (bytes.length < 3 || bytes.length > MAX_SHORT_TOKEN_BYTES) return;
      let packed = 0;
      for (let index = 0; index < bytes.length; index++) packed = packed * 256 + bytes.charCodeAt(index);
      this.insert(shortTokenKey(packed, bytes.length), rank);
      // Past 3/4 full, probes grow long: the table is sized for cl100k_base, not for any rank file.
      if (++held > (SLOTS * 3) / 4) throw new Error('cl100k_base has more short tokens than its table holds');
    });
  }

  /** The rank of the token whose key is `key`, or Infinity when those bytes are no token. */
  rank(key: number): number {
    for (let slot = slotOf(key); ; slot = (slot + 1) & MASK) {
      const held = this.keys[slot];
      if (held === key) return this.ranks[slot];
      if (held === EMPTY) return Infinity;
    }
  }

  private insert(key: number, rank: number): void {
    let slot = slotOf(key);
    while (this.keys[slot] !== EMPTY) slot = (slot + 1) & MASK;
    this.keys[slot] = key;
    this.ranks[slot] = rank;
  }
}

function slotOf(key: number): number {
  const low = key >>> 0;
  const high = (key / TWO_32) >>> 0;
  return (Math.imul(low, 0x9e3779b1) ^ Math.imul(high + low, 0x85ebca77)) >>> (32 - SLOT_BITS);
}
