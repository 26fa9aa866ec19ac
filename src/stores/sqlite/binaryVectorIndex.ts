import { codeWords, popcount32, writeSignCode } from './vectorMath.ts';

/**
 * One model's vectors of one user as 1-bit sign codes (dims/8 bytes each), scanned by Hamming
 * distance to shortlist candidates for an exact cosine rerank. Float32 vectors are also kept
 * while they fit FLOAT_CACHE_BYTES, so small and mid-sized users rerank without reading SQLite.
 */
export class BinaryVectorIndex<Payload> {
  static readonly FLOAT_CACHE_BYTES = 64 * 1024 * 1024;

  readonly dims: number;
  private readonly words: number;
  private codes: Uint32Array;
  private ids: string[] = [];
  private payloads: Payload[] = [];
  private floats: (Float32Array | null)[] = [];
  private readonly slotById = new Map<string, number>();
  private cachingFloats = true;
  /** Scratch for nearestByHamming, reused so a scan allocates nothing in proportion to the index. */
  private readonly queryCode: Uint32Array;
  private distances = new Uint32Array(0);
  private order = new Uint32Array(0);
  /** One cell per possible distance (0..dims) plus one: counts, then where each distance's slots start. */
  private readonly bucketStart: Uint32Array;

  constructor(dims: number) {
    this.dims = dims;
    this.words = codeWords(dims);
    this.codes = new Uint32Array(this.words * 64);
    this.queryCode = new Uint32Array(this.words);
    this.bucketStart = new Uint32Array(dims + 2);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slotById.has(id);
  }

  upsert(id: string, vector: Float32Array, payload: Payload): void {
    let slot = this.slotById.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.ensureCapacity(slot + 1);
      this.ids.push(id);
      this.payloads.push(payload);
      this.floats.push(null);
      this.slotById.set(id, slot);
    }
    this.payloads[slot] = payload;
    writeSignCode(vector, this.codes, slot * this.words);
    if (this.cachingFloats && this.ids.length * this.dims * 4 > BinaryVectorIndex.FLOAT_CACHE_BYTES) {
      this.cachingFloats = false;
      this.floats.fill(null);
    }
    this.floats[slot] = this.cachingFloats ? vector : null;
  }

  /** Swap-remove: the last slot moves into the hole so scans stay dense. */
  remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      const movedId = this.ids[last];
      this.ids[slot] = movedId;
      this.payloads[slot] = this.payloads[last];
      this.floats[slot] = this.floats[last];
      this.codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.slotById.set(movedId, slot);
    }
    this.ids.pop();
    this.payloads.pop();
    this.floats.pop();
    this.slotById.delete(id);
  }

  cachedVector(id: string): Float32Array | null {
    const slot = this.slotById.get(id);
    return slot === undefined ? null : this.floats[slot];
  }

  /** Ids whose payload passes `accept`; the exact path scans these. */
  accepted(accept: (payload: Payload) => boolean): string[] {
    const out: string[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) if (accept(this.payloads[slot])) out.push(this.ids[slot]);
    return out;
  }

  /**
   * Up to `count` accepted ids closest to `query` in Hamming distance, in slot order; ties at the
   * cut-off go to the lower slots. Distances are small integers, so a counting sort orders every
   * slot in linear time, and `accept` runs in that order only until `count` are found: a filter
   * admitting most rows is asked about a few hundred, not about every row (at 100,000 rows that
   * predicate was a fifth of the scan). `accept` must not call back into this index (the scratch
   * buffers are shared).
   */
  nearestByHamming(query: Float32Array, count: number, accept: (payload: Payload) => boolean): string[] {
    const size = this.ids.length;
    if (count <= 0 || size === 0) return [];
    const words = this.words;
    const codes = this.codes;
    const queryCode = this.queryCode;
    writeSignCode(query, queryCode, 0);
    if (this.distances.length < size) {
      this.distances = new Uint32Array(this.codes.length / words);
      this.order = new Uint32Array(this.codes.length / words);
    }
    const distances = this.distances;
    const bucketStart = this.bucketStart;
    bucketStart.fill(0);
    for (let slot = 0; slot < size; slot++) {
      let distance = 0;
      const base = slot * words;
      for (let w = 0; w < words; w++) distance += popcount32(codes[base + w] ^ queryCode[w]);
      distances[slot] = distance;
      bucketStart[distance + 1]++;
    }
    for (let distance = 1; distance < bucketStart.length; distance++) bucketStart[distance] += bucketStart[distance - 1];
    const order = this.order;
    for (let slot = 0; slot < size; slot++) order[bucketStart[distances[slot]]++] = slot;
    const chosen: number[] = [];
    for (let rank = 0; rank < size && chosen.length < count; rank++) {
      const slot = order[rank];
      if (accept(this.payloads[slot])) chosen.push(slot);
    }
    chosen.sort((a, b) => a - b);
    return chosen.map((slot) => this.ids[slot]);
  }

  private ensureCapacity(slots: number): void {
    if (slots * this.words <= this.codes.length) return;
    const grown = new Uint32Array(Math.max(slots * this.words, this.codes.length * 2));
    grown.set(this.codes);
    this.codes = grown;
  }
}
