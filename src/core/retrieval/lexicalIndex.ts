import type { WeightedTerm } from '../ports/memoryStore.ts';
import type { AnalyzedDocument } from '../text/analyzer.ts';
import { TopK } from './topK.ts';

export interface Bm25Options {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation strength, 0 (none) to 1 (full). */
  b: number;
}

/**
 * Defaults tuned on the LoCoMo tuning conversations (see bench/lexical-locomo.ts); close to
 * the Lucene/Pyserini defaults (0.9, 0.4), which suit short memories.
 */
export const DEFAULT_BM25: Bm25Options = { k1: 0.9, b: 0.4 };

export interface LexicalSearchHit {
  memory_id: string;
  score: number;
  matched_terms: string[];
}

/** Doc slots and frequencies of one term, in parallel typed arrays that grow by doubling. */
interface Posting {
  slots: Int32Array;
  tfs: Float32Array;
  size: number;
}

/** Lucene's BM25 idf: always positive, so a term in most documents still helps a little. */
export function bm25Idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * In-memory incremental BM25 index over one user's documents. Removal is eager, so
 * document frequencies, counts and lengths are always exact and match what a SQL
 * backend computes from the same rows.
 */
export class LexicalIndex {
  readonly options: Bm25Options;
  readonly #postings = new Map<string, Posting>();
  readonly #slotOf = new Map<string, number>();
  readonly #freeSlots: number[] = [];
  #ids: string[] = [];
  #terms: Array<Map<string, number> | null> = [];
  #lengths = new Float64Array(16);
  /** Insertion sequence per slot: the deterministic tie-break (earlier first). */
  #orders = new Float64Array(16);
  #nextOrder = 0;
  #totalLength = 0;
  /** Scratch accumulator, one cell per slot, zeroed after every search. */
  #scores = new Float64Array(16);
  /** Scratch list of the slots a search touched; reused so big searches allocate nothing. */
  #touched = new Int32Array(16);

  constructor(options?: Partial<Bm25Options>) {
    this.options = { ...DEFAULT_BM25, ...options };
  }

  get size(): number {
    return this.#slotOf.size;
  }

  has(docId: string): boolean {
    return this.#slotOf.has(docId);
  }

  stats(): { documents: number; averageLength: number } {
    const documents = this.size;
    return { documents, averageLength: documents === 0 ? 0 : this.#totalLength / documents };
  }

  documentFrequency(term: string): number {
    return this.#postings.get(term)?.size ?? 0;
  }

  /** The analysed terms of a stored document (for query expansion); undefined when absent. */
  documentTerms(docId: string): ReadonlyMap<string, number> | undefined {
    const slot = this.#slotOf.get(docId);
    return slot === undefined ? undefined : (this.#terms[slot] ?? undefined);
  }

  upsert(docId: string, doc: AnalyzedDocument): void {
    this.remove(docId);
    const slot = this.#allocateSlot();
    const terms = new Map<string, number>();
    for (const [term, tf] of doc.terms) {
      if (tf <= 0) continue;
      terms.set(term, tf);
      this.#appendPosting(term, slot, tf);
    }
    this.#ids[slot] = docId;
    this.#terms[slot] = terms;
    this.#lengths[slot] = doc.length;
    this.#orders[slot] = this.#nextOrder++;
    this.#totalLength += doc.length;
    this.#slotOf.set(docId, slot);
  }

  remove(docId: string): void {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return;
    for (const term of this.#terms[slot]!.keys()) this.#removePosting(term, slot);
    this.#totalLength -= this.#lengths[slot];
    this.#terms[slot] = null;
    this.#slotOf.delete(docId);
    this.#freeSlots.push(slot);
    if (this.#slotOf.size === 0) this.#totalLength = 0; // drop accumulated float drift
  }

  /**
   * Top `limit` docs by BM25, best first. `accept` filters candidates before the top-k cut, so
   * filtered recall is exact; it must not call back into this index (the scratch buffers are shared).
   */
  search(terms: readonly WeightedTerm[], limit: number, accept?: (docId: string) => boolean): LexicalSearchHit[] {
    if (limit <= 0 || this.size === 0) return [];
    const { k1, b } = this.options;
    const documents = this.size;
    const averageLength = this.#totalLength / documents || 1;
    const scores = this.#scores;
    const lengths = this.#lengths;
    const touched = this.#touched;
    let touchedCount = 0;
    for (const { term, weight } of terms) {
      const posting = this.#postings.get(term);
      if (posting === undefined || weight <= 0) continue;
      const idfWeight = weight * bm25Idf(documents, posting.size) * (k1 + 1);
      const { slots, tfs, size } = posting;
      for (let i = 0; i < size; i++) {
        const slot = slots[i];
        const tf = tfs[i];
        const norm = k1 * (1 - b + (b * lengths[slot]) / averageLength);
        if (scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot] += (idfWeight * tf) / (tf + norm);
      }
    }
    const top = new TopK(limit);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i];
      const score = scores[slot];
      scores[slot] = 0;
      if (score < top.threshold()) continue;
      if (accept !== undefined && !accept(this.#ids[slot])) continue;
      top.offer(slot, score, this.#orders[slot]);
    }
    return top.drain().map(({ slot, score }) => ({
      memory_id: this.#ids[slot],
      score,
      matched_terms: this.#matchedTerms(slot, terms),
    }));
  }

  #matchedTerms(slot: number, terms: readonly WeightedTerm[]): string[] {
    const docTerms = this.#terms[slot]!;
    return terms.filter(({ term, weight }) => weight > 0 && docTerms.has(term)).map(({ term }) => term);
  }

  #allocateSlot(): number {
    const reused = this.#freeSlots.pop();
    if (reused !== undefined) return reused;
    const slot = this.#ids.length;
    this.#ids.push('');
    this.#terms.push(null);
    if (slot >= this.#lengths.length) {
      const capacity = this.#lengths.length * 2;
      this.#lengths = grow(this.#lengths, capacity);
      this.#orders = grow(this.#orders, capacity);
      this.#scores = grow(this.#scores, capacity);
      const touched = new Int32Array(capacity);
      touched.set(this.#touched);
      this.#touched = touched;
    }
    return slot;
  }

  #appendPosting(term: string, slot: number, tf: number): void {
    let posting = this.#postings.get(term);
    if (posting === undefined) {
      posting = { slots: new Int32Array(4), tfs: new Float32Array(4), size: 0 };
      this.#postings.set(term, posting);
    }
    if (posting.size === posting.slots.length) {
      const slots = new Int32Array(posting.size * 2);
      slots.set(posting.slots);
      const tfs = new Float32Array(posting.size * 2);
      tfs.set(posting.tfs);
      posting.slots = slots;
      posting.tfs = tfs;
    }
    posting.slots[posting.size] = slot;
    posting.tfs[posting.size] = tf;
    posting.size++;
  }

  /** Swap-with-last removal: postings are unordered, scoring does not need order. */
  #removePosting(term: string, slot: number): void {
    const posting = this.#postings.get(term)!;
    const index = posting.slots.subarray(0, posting.size).indexOf(slot);
    const last = posting.size - 1;
    posting.slots[index] = posting.slots[last];
    posting.tfs[index] = posting.tfs[last];
    posting.size = last;
    if (last === 0) this.#postings.delete(term);
  }
}

function grow(array: Float64Array<ArrayBuffer>, capacity: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(capacity);
  grown.set(array);
  return grown;
}
