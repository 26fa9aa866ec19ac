import type { WeightedTerm } from '../../core/ports/memoryStore.ts';
import type { AnalyzedDocument } from '../../core/text/analyzer.ts';
import { bm25Idf } from '../../core/text/bm25.ts';
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

/**
 * An index's live documents in flat arrays, in insertion order (the tie-break order): what a
 * persisted index holds. Term numbers index `termNames`, which lists only terms some live
 * document has, so a term whose every document was erased is not carried over. The same cells
 * are held twice: by document (`terms`, `tfs`) and by term (`postingDocuments`, `postingTfs`,
 * each term's run `postingSizes[term]` long), so loading copies both in order instead of
 * scattering three million writes over the postings.
 */
export interface LexicalDocuments {
  termNames: string[];
  ids: string[];
  lengths: Float64Array;
  /** Per document: how many of `terms` / `tfs` are its own, in document order. */
  termCounts: Int32Array;
  terms: Int32Array;
  tfs: Float32Array;
  postingSizes: Int32Array;
  /** Document numbers (positions in `ids`), term after term. */
  postingDocuments: Int32Array;
  postingTfs: Float32Array;
}

/** Lexical documents (a persisted index's content) whose parts do not add up; nothing was built from them. */
export class LexicalDocumentsError extends Error {
  readonly code = 'LEXICAL_DOCUMENTS_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'LexicalDocumentsError';
  }
}

export { bm25Idf };

/**
 * In-memory incremental BM25 index over one user's documents. Removal is eager, so
 * document frequencies, counts and lengths are always exact and match what a SQL
 * backend computes from the same rows.
 *
 * Terms are interned to ids, and every document's term ids and frequencies sit back to back in
 * two typed arrays (the arena) rather than in a Map per document: at 100,000 documents the Maps
 * were half the process heap and half of every full garbage collection, which lands inside calls.
 */
export class LexicalIndex {
  readonly options: Bm25Options;
  readonly #termIdOf = new Map<string, number>();
  readonly #termNames: string[] = [];
  /**
   * By term id: the term's documents as (slot, tf) pairs in one typed array that grows by
   * doubling, and how many pairs are in use. One object per term, not three: most terms are rare,
   * and at 100,000 documents there are over 100,000 of them. A term whose last document went
   * keeps its id with an empty posting.
   */
  #postings: Float64Array[] = [];
  #postingSizes = new Int32Array(1024);
  readonly #slotOf = new Map<string, number>();
  readonly #freeSlots: number[] = [];
  #ids: string[] = [];
  #arenaTerms = new Int32Array(1024);
  #arenaTfs = new Float32Array(1024);
  #arenaUsed = 0;
  /** Arena cells of removed or replaced documents; compacted away once they are half of it. */
  #arenaWaste = 0;
  /** Per slot: where its terms start in the arena, and how many (0 for a free slot). */
  #docStart = new Int32Array(16);
  #docTermCount = new Int32Array(16);
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
    const id = this.#termIdOf.get(term);
    return id === undefined ? 0 : this.#postingSizes[id];
  }

  /** The analysed terms of a stored document (for query expansion); undefined when absent. */
  documentTerms(docId: string): ReadonlyMap<string, number> | undefined {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return undefined;
    const terms = new Map<string, number>();
    const start = this.#docStart[slot];
    for (let i = start; i < start + this.#docTermCount[slot]; i++)
      terms.set(this.#termNames[this.#arenaTerms[i]], this.#arenaTfs[i]);
    return terms;
  }

  /** The live documents, oldest first, with only the terms they use (see LexicalDocuments). */
  exportDocuments(): LexicalDocuments {
    const slots = [...this.#slotOf.values()].sort((a, b) => this.#orders[a] - this.#orders[b]);
    const positionOf = new Int32Array(this.#ids.length);
    const localOf = new Map<number, number>();
    const termIds: number[] = [];
    let cells = 0;
    for (const slot of slots) cells += this.#docTermCount[slot];
    const terms = new Int32Array(cells);
    const tfs = new Float32Array(cells);
    const lengths = new Float64Array(slots.length);
    const termCounts = new Int32Array(slots.length);
    const ids: string[] = new Array<string>(slots.length);
    let cell = 0;
    slots.forEach((slot, position) => {
      positionOf[slot] = position;
      ids[position] = this.#ids[slot];
      lengths[position] = this.#lengths[slot];
      termCounts[position] = this.#docTermCount[slot];
      const start = this.#docStart[slot];
      for (let i = start; i < start + this.#docTermCount[slot]; i++) {
        const termId = this.#arenaTerms[i];
        let local = localOf.get(termId);
        if (local === undefined) {
          local = termIds.length;
          localOf.set(termId, local);
          termIds.push(termId);
        }
        terms[cell] = local;
        tfs[cell] = this.#arenaTfs[i];
        cell++;
      }
    });
    const postingSizes = new Int32Array(termIds.length);
    const postingDocuments = new Int32Array(cells);
    const postingTfs = new Float32Array(cells);
    let at = 0;
    termIds.forEach((termId, local) => {
      const posting = this.#postings[termId];
      const size = this.#postingSizes[termId];
      postingSizes[local] = size;
      for (let i = 0; i < size; i++) {
        postingDocuments[at] = positionOf[posting[2 * i]];
        postingTfs[at] = posting[2 * i + 1];
        at++;
      }
    });
    if (at !== cells)
      throw new Error(`Lexical index out of step: its postings hold ${at} entries, its documents ${cells} terms.`);
    const termNames = termIds.map((termId) => this.#termNames[termId]);
    return { termNames, ids, lengths, termCounts, terms, tfs, postingSizes, postingDocuments, postingTfs };
  }

  /**
   * An index holding `documents` as if they had been upserted in their order, built straight into
   * the flat arrays in sequential copies; no Map per document and no posting grown by doubling.
   * Input whose parts do not add up (a term or document number out of range, sizes that do not
   * sum to the cells, a repeated id or term) is refused: an index out of step with itself would
   * fail later, inside a search or a removal.
   */
  static fromDocuments(documents: LexicalDocuments, options?: Partial<Bm25Options>): LexicalIndex {
    const { termNames, ids, lengths, termCounts, terms, tfs, postingSizes, postingDocuments, postingTfs } = documents;
    const count = ids.length;
    const cells = terms.length;
    if (
      lengths.length !== count ||
      termCounts.length !== count ||
      tfs.length !== cells ||
      postingSizes.length !== termNames.length ||
      postingDocuments.length !== cells ||
      postingTfs.length !== cells
    ) {
      throw new LexicalDocumentsError(
        'Lexical documents do not line up: their ids, lengths, term counts, terms and postings differ in size.',
      );
    }
    let sum = 0;
    for (let doc = 0; doc < count; doc++) sum += termCounts[doc];
    if (sum !== cells) throw new LexicalDocumentsError(`Lexical documents count ${sum} terms but hold ${cells}.`);
    sum = 0;
    for (let term = 0; term < postingSizes.length; term++) sum += postingSizes[term];
    if (sum !== cells) throw new LexicalDocumentsError(`Lexical postings count ${sum} entries but hold ${cells}.`);
    for (let cell = 0; cell < cells; cell++) {
      if (terms[cell] < 0 || terms[cell] >= termNames.length)
        throw new LexicalDocumentsError(`Lexical documents use term number ${terms[cell]} of ${termNames.length}.`);
      if (postingDocuments[cell] < 0 || postingDocuments[cell] >= count)
        throw new LexicalDocumentsError(`Lexical postings name document ${postingDocuments[cell]} of ${count}.`);
    }
    const index = new LexicalIndex(options);
    const termIdOf = index.#termIdOf;
    for (let term = 0; term < termNames.length; term++) {
      if (termIdOf.has(termNames[term]))
        throw new LexicalDocumentsError(`Lexical documents name the term "${termNames[term]}" twice.`);
      termIdOf.set(termNames[term], term);
    }
    for (const name of termNames) index.#termNames.push(name);
    // One buffer for every posting, each term a view of its run (a posting that grows later moves
    // to its own array), filled in one sequential pass: 130,000 separate typed arrays or three
    // million scattered writes cost more than the rest of the load.
    const shared = new Float64Array(2 * cells);
    for (let cell = 0; cell < cells; cell++) {
      shared[2 * cell] = postingDocuments[cell];
      shared[2 * cell + 1] = postingTfs[cell];
    }
    const postings: Float64Array[] = new Array<Float64Array>(termNames.length);
    let offset = 0;
    for (let term = 0; term < termNames.length; term++) {
      const length = 2 * postingSizes[term];
      postings[term] = length === 0 ? new Float64Array(4) : shared.subarray(offset, offset + length);
      offset += length;
    }
    const sizes = new Int32Array(Math.max(1024, termNames.length));
    sizes.set(postingSizes);
    const capacity = Math.max(16, count);
    const docStart = new Int32Array(capacity);
    const docTermCount = new Int32Array(capacity);
    const docLengths = new Float64Array(capacity);
    const orders = new Float64Array(capacity);
    const slotOf = index.#slotOf;
    let totalLength = 0;
    let start = 0;
    for (let slot = 0; slot < count; slot++) {
      if (slotOf.has(ids[slot])) throw new LexicalDocumentsError(`Lexical documents hold "${ids[slot]}" twice.`);
      slotOf.set(ids[slot], slot);
      docStart[slot] = start;
      start += termCounts[slot];
      docTermCount[slot] = termCounts[slot];
      docLengths[slot] = lengths[slot];
      orders[slot] = slot;
      totalLength += lengths[slot];
    }
    const arenaTerms = new Int32Array(Math.max(1024, cells));
    const arenaTfs = new Float32Array(Math.max(1024, cells));
    arenaTerms.set(terms);
    arenaTfs.set(tfs);
    index.#postings = postings;
    index.#postingSizes = sizes;
    index.#docStart = docStart;
    index.#docTermCount = docTermCount;
    index.#lengths = docLengths;
    index.#orders = orders;
    index.#totalLength = totalLength;
    index.#scores = new Float64Array(capacity);
    index.#touched = new Int32Array(capacity);
    index.#arenaTerms = arenaTerms;
    index.#arenaTfs = arenaTfs;
    index.#ids = ids.slice();
    index.#arenaUsed = cells;
    index.#nextOrder = count;
    return index;
  }

  upsert(docId: string, doc: AnalyzedDocument): void {
    this.remove(docId);
    const slot = this.#allocateSlot();
    this.#reserveArena(doc.terms.size);
    const start = this.#arenaUsed;
    for (const [term, tf] of doc.terms) {
      if (tf <= 0) continue;
      const id = this.#internTerm(term);
      this.#arenaTerms[this.#arenaUsed] = id;
      this.#arenaTfs[this.#arenaUsed] = tf;
      this.#arenaUsed++;
      this.#appendPosting(id, slot, tf);
    }
    this.#docStart[slot] = start;
    this.#docTermCount[slot] = this.#arenaUsed - start;
    this.#ids[slot] = docId;
    this.#lengths[slot] = doc.length;
    this.#orders[slot] = this.#nextOrder++;
    this.#totalLength += doc.length;
    this.#slotOf.set(docId, slot);
  }

  remove(docId: string): void {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return;
    const start = this.#docStart[slot];
    const count = this.#docTermCount[slot];
    for (let i = start; i < start + count; i++) this.#removePosting(this.#arenaTerms[i], slot);
    this.#arenaWaste += count;
    this.#docTermCount[slot] = 0;
    this.#totalLength -= this.#lengths[slot];
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
      const id = this.#termIdOf.get(term);
      const size = id === undefined ? 0 : this.#postingSizes[id];
      if (size === 0 || weight <= 0) continue;
      const posting = this.#postings[id!];
      const idfWeight = weight * bm25Idf(documents, size) * (k1 + 1);
      for (let i = 0; i < 2 * size; i += 2) {
        const slot = posting[i];
        const tf = posting[i + 1];
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
    const start = this.#docStart[slot];
    const docTerms = this.#arenaTerms.subarray(start, start + this.#docTermCount[slot]);
    return terms
      .filter(({ term, weight }) => {
        const id = this.#termIdOf.get(term);
        return weight > 0 && id !== undefined && docTerms.includes(id);
      })
      .map(({ term }) => term);
  }

  #internTerm(term: string): number {
    let id = this.#termIdOf.get(term);
    if (id === undefined) {
      id = this.#termNames.length;
      this.#termNames.push(term);
      this.#termIdOf.set(term, id);
      this.#postings.push(new Float64Array(4));
      if (id === this.#postingSizes.length) this.#postingSizes = growInt(this.#postingSizes, id * 2);
    }
    return id;
  }

  /** Room for `cells` more terms at the arena's end: compacts when most of it is waste, else grows. */
  #reserveArena(cells: number): void {
    if (this.#arenaUsed + cells <= this.#arenaTerms.length) return;
    if (this.#arenaWaste * 2 > this.#arenaUsed) this.#compactArena();
    if (this.#arenaUsed + cells <= this.#arenaTerms.length) return;
    const capacity = Math.max(this.#arenaTerms.length * 2, this.#arenaUsed + cells);
    const terms = new Int32Array(capacity);
    terms.set(this.#arenaTerms.subarray(0, this.#arenaUsed));
    const tfs = new Float32Array(capacity);
    tfs.set(this.#arenaTfs.subarray(0, this.#arenaUsed));
    this.#arenaTerms = terms;
    this.#arenaTfs = tfs;
  }

  /** Moves every live document's terms to the front, keeping their order in the arena. */
  #compactArena(): void {
    const live: number[] = [];
    for (let slot = 0; slot < this.#ids.length; slot++) if (this.#docTermCount[slot] > 0) live.push(slot);
    // Slots are reused, so arena order is not slot order; in arena order every run moves only towards the front.
    live.sort((a, b) => this.#docStart[a] - this.#docStart[b]);
    let used = 0;
    for (const slot of live) {
      const start = this.#docStart[slot];
      const count = this.#docTermCount[slot];
      this.#arenaTerms.copyWithin(used, start, start + count);
      this.#arenaTfs.copyWithin(used, start, start + count);
      this.#docStart[slot] = used;
      used += count;
    }
    this.#arenaUsed = used;
    this.#arenaWaste = 0;
  }

  #allocateSlot(): number {
    const reused = this.#freeSlots.pop();
    if (reused !== undefined) return reused;
    const slot = this.#ids.length;
    this.#ids.push('');
    if (slot >= this.#lengths.length) {
      const capacity = this.#lengths.length * 2;
      this.#lengths = grow(this.#lengths, capacity);
      this.#orders = grow(this.#orders, capacity);
      this.#scores = grow(this.#scores, capacity);
      this.#docStart = growInt(this.#docStart, capacity);
      this.#docTermCount = growInt(this.#docTermCount, capacity);
      const touched = new Int32Array(capacity);
      touched.set(this.#touched);
      this.#touched = touched;
    }
    return slot;
  }

  #appendPosting(termId: number, slot: number, tf: number): void {
    let posting = this.#postings[termId];
    const size = this.#postingSizes[termId];
    if (2 * size === posting.length) {
      const grown = new Float64Array(posting.length * 2);
      grown.set(posting);
      this.#postings[termId] = posting = grown;
    }
    posting[2 * size] = slot;
    // Frequencies are held at float32 precision, as every recall figure in the README was measured
    // with; a wider value only reorders documents whose scores tie to the last bit.
    posting[2 * size + 1] = Math.fround(tf);
    this.#postingSizes[termId] = size + 1;
  }

  /** Swap-with-last removal: postings are unordered, scoring does not need order. */
  #removePosting(termId: number, slot: number): void {
    const posting = this.#postings[termId];
    const last = this.#postingSizes[termId] - 1;
    let index = 0;
    while (index <= last && posting[2 * index] !== slot) index++;
    if (index > last)
      throw new Error(
        `Lexical index out of step: document slot ${slot} is missing from the posting of "${this.#termNames[termId]}".`,
      );
    posting[2 * index] = posting[2 * last];
    posting[2 * index + 1] = posting[2 * last + 1];
    this.#postingSizes[termId] = last;
  }
}

function grow(array: Float64Array<ArrayBuffer>, capacity: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(capacity);
  grown.set(array);
  return grown;
}

function growInt(array: Int32Array<ArrayBuffer>, capacity: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}
