import { createHammingKernel, type HammingKernel, PAGE_BYTES } from './hammingKernel.ts';
import { writeSignCode } from './vectorMath.ts';

/**
 * One model's vectors of one user as 1-bit sign codes (dims/8 bytes each), scanned by Hamming
 * distance to shortlist candidates for an exact cosine rerank. Float32 vectors are also kept
 * while they fit FLOAT_CACHE_BYTES, so small and mid-sized users rerank without reading SQLite.
 *
 * Codes live in the Hamming kernel's memory: the query code at byte 0, then one code per slot
 * (`lanes` 128-bit lanes each), then the distance scratch, which moves when the capacity grows.
 */
export class BinaryVectorIndex<Payload> {
  static readonly FLOAT_CACHE_BYTES = 64 * 1024 * 1024;

  readonly dims: number;
  /** Built from the rows, or loaded from a persisted index (fromCodes). */
  origin: 'rows' | 'persisted' = 'rows';
  /** 128-bit lanes per code; a code is padded with zero bits to whole lanes. */
  private readonly lanes: number;
  private readonly strideWords: number;
  private readonly kernel: HammingKernel;
  private capacity = 64;
  private ids: string[] = [];
  private payloads: Payload[] = [];
  private floats: (Float32Array | null)[] = [];
  private readonly slotById = new Map<string, number>();
  private cachingFloats = true;
  /** Scratch for nearestByHamming, reused so a scan allocates nothing in proportion to the index. */
  private order = new Uint32Array(0);
  /** One cell per possible distance (0..dims) plus one: counts, then where each distance's slots start. */
  private readonly bucketStart: Uint32Array;

  /** `simd: false` forces the JavaScript scan (tests compare the two). */
  constructor(dims: number, options: { simd?: boolean } = {}) {
    this.dims = dims;
    this.lanes = Math.ceil(dims / 128);
    this.strideWords = this.lanes * 4;
    this.kernel = createHammingKernel(this.bytesFor(this.capacity), options);
    this.bucketStart = new Uint32Array(dims + 2);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The ids in slot order and their sign codes back to back (`dims/128` rounded up lanes of 4 words each): what a persisted index holds. */
  exportCodes(): { ids: string[]; codes: Uint32Array } {
    const start = this.codeWord(0);
    return {
      ids: this.ids.slice(),
      codes: this.memoryWords().slice(start, start + this.ids.length * this.strideWords),
    };
  }

  /**
   * An index holding `codes` (as exportCodes gives them) without the float vectors: its rerank
   * reads them from SQLite, as an index too large for the float cache always does. `payloadOf`
   * gives each id's payload; an id it has none for, a repeated id or codes of the wrong length
   * are refused (RangeError), so a damaged file never yields an index out of step.
   */
  static fromCodes<Payload>(
    dims: number,
    ids: readonly string[],
    codes: Uint32Array,
    payloadOf: (id: string) => Payload | undefined,
  ): BinaryVectorIndex<Payload> {
    const index = new BinaryVectorIndex<Payload>(dims);
    if (codes.length !== ids.length * index.strideWords)
      throw new RangeError(`Vector codes hold ${codes.length} words for ${ids.length} ids of ${dims} dimensions.`);
    index.ensureCapacity(ids.length);
    for (const id of ids) {
      const payload = payloadOf(id);
      if (payload === undefined) throw new RangeError(`Vector codes name ${id}, which has no payload.`);
      if (index.slotById.has(id)) throw new RangeError(`Vector codes hold ${id} twice.`);
      index.slotById.set(id, index.ids.length);
      index.ids.push(id);
      index.payloads.push(payload);
      index.floats.push(null);
    }
    index.memoryWords().set(codes, index.codeWord(0));
    index.origin = 'persisted';
    return index;
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
    writeSignCode(vector, this.memoryWords(), this.codeWord(slot));
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
      this.memoryWords().copyWithin(this.codeWord(slot), this.codeWord(last), this.codeWord(last + 1));
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
    writeSignCode(query, this.memoryWords(), 0);
    const out = this.distanceOffset();
    this.kernel.distances(this.codeWord(0) * 4, size, this.lanes, 0, out);
    const distances = new Uint32Array(this.kernel.memory.buffer, out, size);
    if (this.order.length < size) this.order = new Uint32Array(this.capacity);
    const bucketStart = this.bucketStart;
    bucketStart.fill(0);
    for (let slot = 0; slot < size; slot++) bucketStart[distances[slot] + 1]++;
    for (let distance = 1; distance < bucketStart.length; distance++)
      bucketStart[distance] += bucketStart[distance - 1];
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

  /** Bytes of kernel memory for `slots` codes: the query code, the codes, the distance scratch. */
  private bytesFor(slots: number): number {
    return (slots + 1) * this.strideWords * 4 + slots * 4;
  }

  private codeWord(slot: number): number {
    return (slot + 1) * this.strideWords;
  }

  private distanceOffset(): number {
    return (this.capacity + 1) * this.strideWords * 4;
  }

  /** A view of the kernel memory; growing the memory detaches earlier views. */
  private memoryWords(): Uint32Array {
    return new Uint32Array(this.kernel.memory.buffer);
  }

  private ensureCapacity(slots: number): void {
    if (slots <= this.capacity) return;
    const capacity = Math.max(slots, this.capacity * 2);
    const missing = this.bytesFor(capacity) - this.kernel.memory.buffer.byteLength;
    if (missing > 0) this.kernel.memory.grow(Math.ceil(missing / PAGE_BYTES));
    this.capacity = capacity;
  }
}
