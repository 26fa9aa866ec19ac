import type { PartMatch, WeightedTerm } from '../../core/ports/memoryStore.ts';
import type { AnalyzedDocument } from '../../core/text/analyzer.ts';
import { bm25Idf } from '../../core/text/bm25.ts';
import { exportDocumentSteps, type FrozenLexicalIndex } from './lexicalExport.ts';
import { SortedKeyIndex } from './sortedKeyIndex.ts';
import { StringColumn, type StringList } from './stringList.ts';
import { keepBest, sortBestFirst, zeroMasks, zeroScores } from './bestSlots.ts';
import { runNow } from './steps.ts';
import {
  addToSurvivors,
  BOUND_SLACK,
  LATER_TERMS_BIT,
  OWN_BIT_TERMS,
  scoreFromArena,
  scoreFromPostings,
  dropSurvivors,
  keepSurvivors,
  measureTermBound,
  scanSurvivors,
  termBit,
  zeroFlags,
} from './maxScore.ts';
import { TopK } from './topK.ts';
import { WordPartIndex } from './wordPartIndex.ts';
import { isWordPart, partsToLookFor } from '../../core/text/wordParts.ts';

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
 * document has, so a term whose every document was erased is not carried over, in string order,
 * and `idOrder` is the permutation that sorts `ids`: a loaded index finds terms and documents by
 * binary search instead of building a Map of 100,000 keys (SortedKeyIndex). Every (term,
 * document) cell is held once, by term: each term's run of `postingDocuments` / `postingTfs` is
 * `postingSizes[term]` long and lists its documents in increasing order. A loaded index searches
 * these arrays as they are; its per-document copy is made from them only when a change or a
 * per-document read first needs it (LexicalIndex, #materialiseDocuments).
 */
export interface LexicalDocuments {
  /** Every term once, in string order (an array, or a persisted file's strings read in place). */
  termNames: StringList;
  ids: StringList;
  /** Positions in `ids` in the string order of the ids (sortedOrder). */
  idOrder: Int32Array;
  lengths: Float64Array;
  postingSizes: Int32Array;
  /** Document numbers (positions in `ids`), term after term, increasing within a term. */
  postingDocuments: Int32Array;
  /** Frequencies in half units (tfUnits), beside `postingDocuments`. */
  postingTfs: Uint16Array;
}

/** Lexical documents as an export makes them: names and ids in arrays. */
export type ExportedLexicalDocuments = LexicalDocuments & { termNames: string[]; ids: string[] };

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
 * Term frequencies are held in half units, as 16-bit integers: the analyzer's field weights (1, 0.5,
 * 2, 1.5, 0.5) make every frequency a multiple of a half, so this is exact, at a quarter of the
 * 8 bytes two float copies took per posting. A frequency above 32,767.5 (one word repeated that
 * often in one memory) is held at 32,767.5: BM25 has saturated long before, the score moves by
 * under 1e-4 of that term's weight. A frequency off the half grid is rounded to the nearest half.
 */
export const TF_UNITS_PER_ONE = 2;
const MAX_TF_UNITS = 0xffff;

/** `tf` in the half units an index holds. */
export function tfUnits(tf: number): number {
  return Math.min(MAX_TF_UNITS, Math.round(tf * TF_UNITS_PER_ONE));
}

/**
 * In-memory incremental BM25 index over one user's documents. Removal is eager, so
 * document frequencies, counts and lengths are always exact and match what a SQL
 * backend computes from the same rows.
 *
 * Terms are interned to ids, and every document's term ids and frequencies sit back to back in
 * two typed arrays (the arena) rather than in a Map per document: at 100,000 documents the Maps
 * were half the process heap and half of every full garbage collection, which lands inside calls.
 * A search reads only the postings; the arena serves removals, `documentTerms` and `freeze`, so an
 * index loaded from a persisted file (which holds only postings) makes its arena the first time one
 * of those needs it, in one pass over the postings.
 */
export class LexicalIndex {
  readonly options: Bm25Options;
  /** A loaded index's terms by binary search over its sorted names; terms interned later in a Map beside them. */
  #termIdOf = new SortedKeyIndex();
  /**
   * Term names and document ids by number: a loaded index's over the documents' own lists, which
   * the sorted key indexes search and which never change (a column keeps what is appended or
   * replaced beside them).
   */
  #termNames = new StringColumn();
  /**
   * Every term's posting, a run of (slot, tf) cells in two shared columns: slots as 32-bit
   * integers, frequencies in half units (tfUnits). By term id: where its
   * run starts, how many cells it uses and how many it has room for. No object per term (there
   * are over 100,000 at 100,000 documents): a run that fills up moves to the columns' end with
   * twice the room, and the columns are compacted before they grow when moved-out runs are a third of them. A term
   * whose last document went keeps its id with an empty run. An index loaded from a persisted
   * file holds the file's own arrays, exactly sized, until it changes (fromDocuments).
   */
  #postingSlots: Int32Array<ArrayBufferLike> = new Int32Array(1024);
  #postingTfs: Uint16Array<ArrayBufferLike> = new Uint16Array(1024);
  #postingsUsed = 0;
  /** Cells of runs that moved away; compacted before growing once they are a third of the used cells. */
  #postingsWaste = 0;
  #postingStarts = new Int32Array(1024);
  #postingSizes: Int32Array<ArrayBufferLike> = new Int32Array(1024);
  #postingRooms = new Int32Array(1024);
  #slotOf = new SortedKeyIndex();
  readonly #freeSlots: number[] = [];
  #ids = new StringColumn();
  /**
   * Slots below this (an index loaded from postings: its documents) have no cells in the arena yet:
   * their `#docStart` and `#docTermCount` are unset until #materialiseDocuments fills them. Slots
   * written after the load are in the arena as usual. 0 once the arena holds every document.
   */
  #slotsOnlyInPostings = 0;
  /** The words that hold each part, for partMatches on documents only in the postings; made when first needed. */
  #wordParts: WordPartIndex | null = null;
  /** partMatches' per-term marks: a term id holds no part of the call whose generation it carries. */
  #partMarks = new Int32Array(0);
  #partGeneration = 0;
  #arenaTerms: Int32Array<ArrayBufferLike> = new Int32Array(1024);
  #arenaTfs: Uint16Array<ArrayBufferLike> = new Uint16Array(1024);
  #arenaUsed = 0;
  /** Arena cells of removed or replaced documents; compacted away once they are half of it. */
  #arenaWaste = 0;
  /** Per slot: where its terms start in the arena, and how many (0 for a free slot). */
  #docStart = new Int32Array(16);
  #docTermCount = new Int32Array(16);
  #lengths: Float64Array<ArrayBufferLike> = new Float64Array(16);
  /** Insertion sequence per slot: the deterministic tie-break (earlier first). */
  #orders = new Float64Array(16);
  #nextOrder = 0;
  #totalLength = 0;
  /** Scratch accumulator, one cell per slot, zeroed after every search. */
  #scores = new Float64Array(16);
  /** Scratch list of the slots a search touched; reused so big searches allocate nothing. */
  #touched = new Int32Array(16);
  /**
   * Scratch, one cell per slot, zeroed after every search: bit `i` set when the search's `i`-th
   * term (i < 31) is in the slot's document, bit 31 when one of its later terms is (MatchedTerms).
   * Non-zero exactly for the slots a search touched.
   */
  #matchMasks = new Int32Array(16);
  /**
   * Per term id, the pruned search's bound (maxScore.ts): its largest frequency in tf units (0 until
   * first measured, by the first search that needs it) and its shortest document's length. Raised
   * by a write, left as they are by a removal (still bounds, if looser): a persisted index loads
   * without them.
   */
  #boundUnits = new Uint16Array(0);
  #boundLengths = new Float64Array(0);
  /** Scratch, one cell per term id, zero between searches: a pruned search's first query position of the term, 1-based. */
  #queryPositionOf = new Int32Array(0);
  /** Scratch, one cell per slot, zeroed after every search: 1 for a pruned search's survivors. */
  #survivorFlags = new Uint8Array(0);

  /**
   * A search over at least this many posting cells is pruned (#prunedSearch); below, every cell is
   * scanned. MIN_PRUNED_POSTINGS, set lower by the tests, which compare the two on small indexes.
   */
  prunedSearchFrom = MIN_PRUNED_POSTINGS;
  /** What the searches so far read, for the benchmarks: see SearchWork. */
  readonly searchWork: SearchWork = {
    filteredRetries: 0,
    refusedScans: 0,
    searches: 0,
    pruned: 0,
    scannedCells: 0,
    boundCells: 0,
    survivorCells: 0,
    survivors: 0,
  };

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

  /** Cells the posting columns hold room for, against the cells live documents use: what compaction bounds. */
  postingFootprint(): { cells: number; capacity: number } {
    let cells = 0;
    for (let term = 0; term < this.#termNames.length; term++) cells += this.#postingSizes[term];
    return { cells, capacity: this.#postingSlots.length };
  }

  /** Cells the per-document copy (the arena) has room for: 0 for a loaded index until a change or a per-document read needs it. */
  documentCopyCapacity(): number {
    return this.#arenaTerms.length;
  }

  documentFrequency(term: string): number {
    const id = this.#termIdOf.get(term);
    return id === undefined ? 0 : this.#postingSizes[id];
  }

  /** The analysed terms of a stored document (for query expansion); undefined when absent. */
  documentTerms(docId: string): ReadonlyMap<string, number> | undefined {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return undefined;
    if (slot < this.#slotsOnlyInPostings) this.#materialiseDocuments();
    const terms = new Map<string, number>();
    const start = this.#docStart[slot];
    for (let i = start; i < start + this.#docTermCount[slot]; i++)
      terms.set(this.#termNames.at(this.#arenaTerms[i])!, this.#arenaTfs[i] / TF_UNITS_PER_ONE);
    return terms;
  }

  /** The live documents, oldest first, with only the terms they use (see LexicalDocuments). */
  exportDocuments(): ExportedLexicalDocuments {
    return runNow(exportDocumentSteps(this.freeze()));
  }

  /**
   * The index as it is now, for an export that runs while it goes on changing (a persisted
   * index's save, in slices): the per-slot columns are copied (24 bytes a document), the arena and
   * the term names are shared, since cells below the arena's use and names are never rewritten.
   */
  freeze(): FrozenLexicalIndex {
    this.#materialiseDocuments();
    const slots = this.#ids.length;
    return {
      termNames: this.#termNames,
      termCount: this.#termNames.length,
      ids: this.#ids.copy(),
      freeSlots: this.#freeSlots.slice(),
      orders: this.#orders.slice(0, slots),
      docStart: this.#docStart.slice(0, slots),
      docTermCount: this.#docTermCount.slice(0, slots),
      lengths: this.#lengths.slice(0, slots),
      arenaTerms: this.#arenaTerms as Int32Array,
      arenaTfs: this.#arenaTfs as Uint16Array,
    };
  }

  /**
   * An index holding `documents` as if they had been upserted in their order. It takes the
   * documents' typed arrays as its own (a persisted file's sections, read in place): the index
   * writes into them as it changes, so a caller must not reuse them. Input whose parts do not add
   * up (a document number out of range or twice in a term's run, sizes that do not sum to the
   * cells, a repeated or unordered id or term) is refused: an index out of step with itself would
   * fail later, inside a search or a removal. Nothing per document is built here beyond its length
   * (#materialiseDocuments).
   */
  static fromDocuments(documents: LexicalDocuments, options?: Partial<Bm25Options>): LexicalIndex {
    const { termNames, ids, idOrder, lengths, postingSizes, postingDocuments, postingTfs } = documents;
    const count = ids.length;
    const cells = postingDocuments.length;
    const termTotal = termNames.length;
    if (lengths.length !== count || postingSizes.length !== termTotal || postingTfs.length !== cells) {
      throw new LexicalDocumentsError(
        'Lexical documents do not line up: their ids, lengths, terms and postings differ in size.',
      );
    }
    const capacity = Math.max(1024, termTotal);
    const starts = new Int32Array(capacity);
    // The documents' own arrays where they have the room (written in place from now on, as the
    // postings are): a copy of the sizes and lengths was 1.3 MB a fresh process kept at 100,000 documents.
    const sizes = postingSizes.length === capacity ? postingSizes : new Int32Array(capacity);
    const offset = checkPostings(postingSizes, postingDocuments, count, starts, sizes);
    if (offset !== cells)
      throw new LexicalDocumentsError(`Lexical postings count ${offset} entries but hold ${cells}.`);
    const termProblem = SortedKeyIndex.problemWith(termNames, null);
    if (termProblem !== null) throw new LexicalDocumentsError(`Lexical documents' terms: ${termProblem}.`);
    const idProblem = SortedKeyIndex.problemWith(ids, idOrder);
    if (idProblem !== null) throw new LexicalDocumentsError(`Lexical documents' ids: ${idProblem}.`);
    const index = new LexicalIndex(options);
    // Both lookups search the loaded lists, which nothing changes: #ids and #termNames keep changes beside them.
    index.#termIdOf = new SortedKeyIndex(termNames, null);
    index.#slotOf = new SortedKeyIndex(ids, idOrder);
    index.#termNames = new StringColumn(termNames);
    // The postings are the documents' own arrays: document numbers are the slots, term after term
    // with no gap, so each run starts where the previous ends and has no spare room. Nothing is
    // copied; the first posting to grow moves to the end (#appendPosting).
    index.#postingSlots = postingDocuments;
    index.#postingTfs = postingTfs;
    index.#postingsUsed = cells;
    index.#postingStarts = starts;
    index.#postingSizes = sizes;
    index.#postingRooms = sizes.slice();
    const slotCapacity = Math.max(16, count);
    const docLengths = lengths.length === slotCapacity ? lengths : new Float64Array(slotCapacity);
    if (docLengths !== lengths) docLengths.set(lengths);
    const orders = new Float64Array(slotCapacity);
    let totalLength = 0;
    for (let slot = 0; slot < count; slot++) {
      orders[slot] = slot;
      totalLength += lengths[slot];
    }
    index.#lengths = docLengths;
    index.#orders = orders;
    index.#totalLength = totalLength;
    index.#docStart = new Int32Array(slotCapacity);
    index.#docTermCount = new Int32Array(slotCapacity);
    index.#scores = new Float64Array(slotCapacity);
    index.#touched = new Int32Array(slotCapacity);
    index.#matchMasks = new Int32Array(slotCapacity);
    index.#slotsOnlyInPostings = count;
    index.#arenaTerms = new Int32Array(0);
    index.#arenaTfs = new Uint16Array(0);
    index.#arenaUsed = 0;
    index.#ids = new StringColumn(ids);
    index.#nextOrder = count;
    return index;
  }

  /**
   * Puts the loaded documents' cells in the arena, made from the postings (a transposition: each
   * document's cells in term order), followed by the cells of the documents written since the load;
   * a no-op once done. Run the first time a removal or rewrite of a loaded document,
   * `documentTerms` of one, or `freeze` needs it; a new document's write does not. At 100,000
   * documents (3.5 million cells) this is 65-75 ms of CPU, once, and 21 MB (measured).
   */
  #materialiseDocuments(): void {
    const loaded = this.#slotsOnlyInPostings;
    if (loaded === 0) return;
    const slots = this.#ids.length;
    const counts = this.#docTermCount;
    const postingSlots = this.#postingSlots;
    const termTotal = this.#termNames.length;
    // Loaded slots are never freed before this (a removal of one calls this first), so a slot below
    // `loaded` holds its loaded document, and every posting cell of a later slot is in the arena already.
    for (let term = 0; term < termTotal; term++) {
      const start = this.#postingStarts[term];
      for (let cell = start; cell < start + this.#postingSizes[term]; cell++)
        if (postingSlots[cell] < loaded) counts[postingSlots[cell]]++;
    }
    let used = 0;
    for (let slot = 0; slot < slots; slot++) used += counts[slot];
    // Some room beyond the documents, so the first writes after a load do not double the arena.
    const capacity = used + Math.max(1024, used >> 3);
    const terms = new Int32Array(capacity);
    const tfs = new Uint16Array(capacity);
    const fill = new Int32Array(loaded);
    let at = 0;
    for (let slot = 0; slot < slots; slot++) {
      const count = counts[slot];
      if (slot < loaded) fill[slot] = at;
      else if (count > 0) {
        const from = this.#docStart[slot];
        terms.set(this.#arenaTerms.subarray(from, from + count), at);
        tfs.set(this.#arenaTfs.subarray(from, from + count), at);
      }
      this.#docStart[slot] = at;
      at += count;
    }
    const postingTfs = this.#postingTfs;
    for (let term = 0; term < termTotal; term++) {
      const start = this.#postingStarts[term];
      for (let cell = start; cell < start + this.#postingSizes[term]; cell++) {
        const slot = postingSlots[cell];
        if (slot >= loaded) continue;
        const to = fill[slot]++;
        terms[to] = term;
        tfs[to] = postingTfs[cell];
      }
    }
    this.#arenaTerms = terms;
    this.#arenaTfs = tfs;
    this.#arenaUsed = used;
    this.#arenaWaste = 0;
    this.#slotsOnlyInPostings = 0;
  }

  upsert(docId: string, doc: AnalyzedDocument): void {
    this.remove(docId);
    const slot = this.#allocateSlot();
    this.#reserveArena(doc.terms.size);
    const start = this.#arenaUsed;
    for (const [term, tf] of doc.terms) {
      const units = tfUnits(tf);
      if (units <= 0) continue;
      const id = this.#internTerm(term);
      this.#arenaTerms[this.#arenaUsed] = id;
      this.#arenaTfs[this.#arenaUsed] = units;
      this.#arenaUsed++;
      this.#appendPosting(id, slot, units);
      this.#raiseBound(id, units, doc.length);
    }
    this.#docStart[slot] = start;
    this.#docTermCount[slot] = this.#arenaUsed - start;
    this.#ids.set(slot, docId);
    this.#lengths[slot] = doc.length;
    this.#orders[slot] = this.#nextOrder++;
    this.#totalLength += doc.length;
    this.#slotOf.set(docId, slot);
  }

  remove(docId: string): void {
    const slot = this.#slotOf.get(docId);
    if (slot === undefined) return;
    if (slot < this.#slotsOnlyInPostings) this.#materialiseDocuments();
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
   * Top `limit` docs by BM25, best first, each with the query terms its document has (in query
   * order), found while scanning the postings (#matchMasks), so a search needs nothing per
   * document. `accept` filters candidates before the top-k cut, so
   * filtered recall is exact; it must not call back into this index (the scratch buffers are shared).
   * A search over many postings is pruned (#prunedSearch); it returns what searchExhaustive does,
   * scores bit for bit, and asks `accept` the same questions in the same order.
   */
  search(
    terms: readonly WeightedTerm[],
    limit: number,
    accept?: (docId: string) => boolean,
    options?: SearchOptions,
  ): LexicalSearchHit[] {
    if (limit <= 0 || this.size === 0) return [];
    const query = this.#queryTerms(terms);
    this.searchWork.searches++;
    const best = Math.floor(limit);
    // Only a search with more matches than it keeps can skip any: fewer, and it keeps them all.
    const bounds =
      query.postings >= this.prunedSearchFrom && best >= 1 && best < this.size ? this.#termBounds(query) : null;
    if (bounds === null) return this.#searchAll(terms, query, limit, accept, false);
    const hits = this.#prunedSearch(terms, query, bounds, best, accept);
    if (hits !== null) return hits;
    if (options?.pureFilter === true && accept !== undefined) {
      const filtered = this.#prunedFiltered(terms, query, bounds, best, accept);
      if (filtered !== null) return filtered;
    }
    // The filter refused one of the best: every touched document is offered to it, as searchExhaustive does then.
    this.searchWork.refusedScans++;
    return this.#searchAll(terms, query, limit, accept, true);
  }

  /**
   * search without pruning: every posting of every query term is added up. The reference the pruned
   * search is compared with (test/stores/common/prunedSearch.test.ts and bench/prunedSearch.ts).
   */
  searchExhaustive(
    terms: readonly WeightedTerm[],
    limit: number,
    accept?: (docId: string) => boolean,
  ): LexicalSearchHit[] {
    if (limit <= 0 || this.size === 0) return [];
    return this.#searchAll(terms, this.#queryTerms(terms), limit, accept, false);
  }

  /** The query's terms as a search scans them: ids (-1 for a term not searched) and contribution scales. */
  #queryTerms(terms: readonly WeightedTerm[]): QueryTerms {
    const { k1, b } = this.options;
    const documents = this.size;
    const averageLength = this.#totalLength / documents || 1;
    const termIds = new Int32Array(terms.length).fill(-1);
    const idfWeights = new Float64Array(terms.length);
    let postings = 0;
    for (let at = 0; at < terms.length; at++) {
      const { term, weight } = terms[at];
      const id = this.#termIdOf.get(term);
      const size = id === undefined ? 0 : this.#postingSizes[id];
      if (size === 0 || weight <= 0) continue;
      termIds[at] = id!;
      idfWeights[at] = weight * bm25Idf(documents, size) * (k1 + 1);
      postings += size;
    }
    return {
      termIds,
      idfWeights,
      postings,
      // BM25's length norm k1·(1 − b + b·length/average) as base + perLength·length, in tf units.
      normBase: k1 * (1 - b) * TF_UNITS_PER_ONE,
      normPerLength: ((k1 * b) / averageLength) * TF_UNITS_PER_ONE,
    };
  }

  /** Every posting of every query term added up in query order, then the best `limit` the filter takes. */
  #searchAll(
    terms: readonly WeightedTerm[],
    query: QueryTerms,
    limit: number,
    accept: ((docId: string) => boolean) | undefined,
    refused: boolean,
  ): LexicalSearchHit[] {
    const { termIds, idfWeights, normBase, normPerLength } = query;
    const scores = this.#scores;
    const masks = this.#matchMasks;
    const touched = this.#touched;
    const columns: ScanColumns = {
      slots: this.#postingSlots,
      tfs: this.#postingTfs,
      scores,
      masks,
      lengths: this.#lengths,
      touched,
    };
    let touchedCount = 0;
    this.searchWork.scannedCells += query.postings;
    for (let at = 0; at < terms.length; at++) {
      const id = termIds[at];
      if (id === -1) continue;
      const start = this.#postingStarts[id];
      touchedCount = scanPosting(
        columns,
        start,
        start + this.#postingSizes[id],
        termBit(at),
        idfWeights[at],
        normBase,
        normPerLength,
        touchedCount,
      );
    }
    let hits: LexicalTopHit[];
    try {
      hits =
        refused && accept !== undefined
          ? this.#bestFiltered(touchedCount, limit, accept)
          : this.#bestAccepted(touchedCount, limit, accept);
    } catch (error) {
      zeroMasks(masks, touched, touchedCount);
      throw error;
    } finally {
      // Zeroed even when the filter throws: the next search adds into these scratch cells.
      zeroScores(scores, touched, touchedCount);
    }
    return this.#hitsWithTerms(hits, terms, termIds, touchedCount);
  }

  /** The hits with their matched terms; clears the masks of the `touchedCount` touched slots. */
  #hitsWithTerms(
    hits: readonly LexicalTopHit[],
    terms: readonly WeightedTerm[],
    termIds: Int32Array,
    touchedCount: number,
  ): LexicalSearchHit[] {
    const matched = this.#matchedTerms(hits, terms, termIds);
    zeroMasks(this.#matchMasks, this.#touched, touchedCount);
    return hits.map(({ slot, score }, rank) => ({
      memory_id: this.#ids.at(slot)!,
      score,
      matched_terms: matched[rank],
    }));
  }

  /**
   * Per query position, the most its term can add to any document's score (maxScore.ts); null when
   * the search is not worth pruning or the bounds do not hold (fewer than two terms, a weight or a
   * length norm that is not a non-negative finite number). Measures a term's frequency and length
   * bound the first time a search needs it.
   */
  #termBounds(query: QueryTerms): Float64Array | null {
    const { termIds, idfWeights, normBase, normPerLength } = query;
    if (!(normBase >= 0 && normPerLength >= 0 && normBase < Infinity && normPerLength < Infinity)) return null;
    const termCount = this.#termNames.length;
    if (this.#boundUnits.length < termCount) {
      const room = Math.max(termCount, this.#boundUnits.length * 2);
      const units = new Uint16Array(room);
      units.set(this.#boundUnits);
      const lengths = new Float64Array(room);
      lengths.set(this.#boundLengths);
      this.#boundUnits = units;
      this.#boundLengths = lengths;
    }
    const bounds = new Float64Array(termIds.length);
    let searched = 0;
    for (let at = 0; at < termIds.length; at++) {
      const id = termIds[at];
      if (id === -1) continue;
      if (!(idfWeights[at] < Infinity)) return null;
      if (this.#boundUnits[id] === 0) {
        const start = this.#postingStarts[id];
        measureTermBound(
          this.#postingSlots,
          this.#postingTfs,
          this.#lengths,
          start,
          start + this.#postingSizes[id],
          id,
          this.#boundUnits,
          this.#boundLengths,
        );
      }
      const units = this.#boundUnits[id];
      const norm = normBase + normPerLength * this.#boundLengths[id];
      bounds[at] = (idfWeights[at] * units) / (units + norm);
      if (!(norm >= 0 && bounds[at] >= 0 && bounds[at] < Infinity)) return null;
      searched++;
    }
    return searched >= 2 ? bounds : null;
  }

  /** A write's frequency and length kept in its term's bound, if that bound was measured. */
  #raiseBound(termId: number, units: number, length: number): void {
    if (termId >= this.#boundUnits.length || this.#boundUnits[termId] === 0) return;
    if (units > this.#boundUnits[termId]) this.#boundUnits[termId] = units;
    if (length < this.#boundLengths[termId]) this.#boundLengths[termId] = length;
  }

  /**
   * The search pruned (maxScore.ts): the survivors' exact scores and masks, the best `best` of them,
   * and the filter asked about those as #bestAccepted asks. Null, with the scratch cells clear, when
   * the filter refuses one of them.
   */
  #prunedSearch(
    terms: readonly WeightedTerm[],
    query: QueryTerms,
    bounds: Float64Array,
    best: number,
    accept: ((docId: string) => boolean) | undefined,
  ): LexicalSearchHit[] | null {
    const count = this.#survivorScores(query, bounds, best);
    const touched = this.#touched;
    let hits: LexicalTopHit[] = [];
    let taken = false;
    try {
      hits = this.#bestUnfiltered(count, best);
      taken = accept === undefined || hits.every(({ slot }) => accept(this.#ids.at(slot)!));
    } finally {
      // Cleared even when the filter throws: the next search adds into these scratch cells.
      zeroScores(this.#scores, touched, count);
      if (!taken) zeroMasks(this.#matchMasks, touched, count);
    }
    return taken ? this.#hitsWithTerms(hits, terms, query.termIds, count) : null;
  }

  /**
   * After the filter refused one of the unfiltered best, for a filter that only answers (SearchOptions):
   * the pruned search again for the best `room` unfiltered, room four, sixteen, sixty-four times
   * `best`, each offered to the filter best first until it took `best`. The filtered best are the
   * first `best` the filter takes in the unfiltered order, so once the best `room` hold that many (or
   * are every document the terms touch) they are the answer, as searchExhaustive would give it.
   * Null, with the scratch cells clear, when `room` reaches the index's size first.
   */
  #prunedFiltered(
    terms: readonly WeightedTerm[],
    query: QueryTerms,
    bounds: Float64Array,
    best: number,
    accept: (docId: string) => boolean,
  ): LexicalSearchHit[] | null {
    for (let room = best * FILTERED_ROOM_GROWTH; room < this.size; room *= FILTERED_ROOM_GROWTH) {
      this.searchWork.filteredRetries++;
      const count = this.#survivorScores(query, bounds, room);
      const touched = this.#touched;
      const hits: LexicalTopHit[] = [];
      let answered = false;
      try {
        const ranked = this.#bestUnfiltered(count, room);
        for (let rank = 0; rank < ranked.length && hits.length < best; rank++)
          if (accept(this.#ids.at(ranked[rank].slot)!)) hits.push(ranked[rank]);
        // Fewer than `room` ranked: the terms touch no more documents (survivors are at least `room` otherwise).
        answered = hits.length === best || ranked.length < room;
      } finally {
        zeroScores(this.#scores, touched, count);
        if (!answered) zeroMasks(this.#matchMasks, touched, count);
      }
      if (answered) return this.#hitsWithTerms(hits, terms, query.termIds, count);
    }
    return null;
  }

  /**
   * MaxScore's two passes (maxScore.ts): leaves in `#touched[0, count)` the survivors, with their
   * scores and masks as a full scan leaves them, and returns `count`.
   */
  #survivorScores(query: QueryTerms, bounds: Float64Array, best: number): number {
    const { termIds, idfWeights, normBase, normPerLength } = query;
    if (this.#survivorFlags.length < this.#lengths.length) this.#survivorFlags = new Uint8Array(this.#lengths.length);
    const flags = this.#survivorFlags;
    const scores = this.#scores;
    const masks = this.#matchMasks;
    const touched = this.#touched;
    const slots = this.#postingSlots;
    const tfs = this.#postingTfs;
    const lengths = this.#lengths;
    const columns: ScanColumns = { slots, tfs, scores, masks, lengths, touched };
    const order: number[] = [];
    for (let at = 0; at < termIds.length; at++) if (termIds[at] !== -1) order.push(at);
    order.sort((a, c) => bounds[c] - bounds[a] || a - c);
    // rest[i]: what the terms from order[i] on can add together.
    const rest = new Float64Array(order.length + 1);
    for (let i = order.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + bounds[order[i]];
    const heap = new Int32Array(best);
    let touchedCount = 0;
    let threshold = 0;
    let scanned = order.length;
    for (let i = 0; i < order.length; i++) {
      const id = termIds[order[i]];
      const size = this.#postingSizes[id];
      // The k-th best sum so far costs a pass over the touched slots: worth it before a long posting.
      if (touchedCount >= best && size * CHECK_BEFORE_POSTING >= touchedCount) {
        threshold = kthBestScore(touched, touchedCount, scores, this.#orders, heap);
        if (rest[i] * (1 + BOUND_SLACK) < threshold * (1 - BOUND_SLACK)) {
          scanned = i;
          break;
        }
      }
      const start = this.#postingStarts[id];
      this.searchWork.scannedCells += size;
      touchedCount = scanPosting(
        columns,
        start,
        start + size,
        1,
        idfWeights[order[i]],
        normBase,
        normPerLength,
        touchedCount,
      );
    }
    this.searchWork.pruned++;
    if (scanned === order.length) threshold = kthBestScore(touched, touchedCount, scores, this.#orders, heap);
    let count = keepSurvivors(
      touched,
      touchedCount,
      scores,
      masks,
      flags,
      rest[scanned] * (1 + BOUND_SLACK),
      threshold * (1 - BOUND_SLACK),
    );
    // The other terms added into the survivors' sums, highest bound first, dropping after each term
    // those that can no longer reach the k-th best (which rises as the sums do), until scoring each
    // survivor from its own terms costs less than reading the rest of the postings.
    const searched = order.length;
    let remaining = 0;
    for (let i = scanned; i < searched; i++) remaining += this.#postingSizes[termIds[order[i]]];
    let sinceDrop = 0;
    for (let i = scanned; i < searched && count > best; i++) {
      if (count * this.#costPerSurvivor(searched) < remaining + query.postings) break;
      const id = termIds[order[i]];
      const start = this.#postingStarts[id];
      const size = this.#postingSizes[id];
      this.searchWork.boundCells += size;
      remaining -= size;
      addToSurvivors(
        slots,
        tfs,
        flags,
        scores,
        lengths,
        start,
        start + size,
        idfWeights[order[i]],
        normBase,
        normPerLength,
      );
      // Raising the k-th best and dropping read every survivor: done once the cells added since pay for it.
      sinceDrop += size;
      if (sinceDrop < count && i + 1 < searched) continue;
      sinceDrop = 0;
      threshold = Math.max(threshold, kthBestScore(touched, count, scores, this.#orders, heap));
      count = dropSurvivors(
        touched,
        count,
        scores,
        flags,
        rest[i + 1] * (1 + BOUND_SLACK),
        threshold * (1 - BOUND_SLACK),
      );
    }
    zeroScores(scores, touched, count);
    this.searchWork.survivors += count;
    if (count * this.#costPerSurvivor(searched) < query.postings) {
      zeroFlags(flags, touched, count);
      this.#scoreEach(query, count);
      return count;
    }
    this.searchWork.survivorCells += query.postings;
    for (let at = 0; at < termIds.length; at++) {
      const id = termIds[at];
      if (id === -1) continue;
      const start = this.#postingStarts[id];
      scanSurvivors(
        slots,
        tfs,
        flags,
        scores,
        masks,
        lengths,
        start,
        start + this.#postingSizes[id],
        termBit(at),
        idfWeights[at],
        normBase,
        normPerLength,
      );
    }
    zeroFlags(flags, touched, count);
    return count;
  }

  /**
   * About what scoring one survivor from its own terms costs, in posting cells read: its terms in
   * the arena (SURVIVOR_CELLS), or, for a loaded index's documents, a binary search per query term.
   */
  #costPerSurvivor(searchedTerms: number): number {
    return this.#slotsOnlyInPostings > 0 ? searchedTerms * LOADED_SURVIVOR_CELLS : SURVIVOR_CELLS + searchedTerms;
  }

  /** Each of the `count` survivors at the front of #touched scored from its own terms (maxScore.ts). */
  #scoreEach(query: QueryTerms, count: number): void {
    const { termIds, idfWeights, normBase, normPerLength } = query;
    const termCount = this.#termNames.length;
    if (this.#queryPositionOf.length < termCount)
      this.#queryPositionOf = new Int32Array(Math.max(termCount, this.#queryPositionOf.length * 2));
    const positionOf = this.#queryPositionOf;
    const nextPosition = new Int32Array(termIds.length);
    const unitsAt = new Int32Array(termIds.length).fill(-1);
    for (let at = termIds.length - 1; at >= 0; at--) {
      const id = termIds[at];
      if (id === -1) continue;
      nextPosition[at] = positionOf[id];
      positionOf[id] = at + 1;
    }
    const touched = this.#touched;
    const loaded = this.#slotsOnlyInPostings;
    try {
      for (let i = 0; i < count; i++) {
        const slot = touched[i];
        if (slot < loaded)
          scoreFromPostings(
            slot,
            termIds,
            this.#postingStarts,
            this.#postingSizes,
            this.#postingSlots,
            this.#postingTfs,
            idfWeights,
            normBase,
            normPerLength,
            this.#lengths,
            this.#scores,
            this.#matchMasks,
          );
        else {
          const start = this.#docStart[slot];
          scoreFromArena(
            slot,
            start,
            start + this.#docTermCount[slot],
            this.#arenaTerms,
            this.#arenaTfs,
            positionOf,
            nextPosition,
            unitsAt,
            idfWeights,
            normBase,
            normPerLength,
            this.#lengths,
            this.#scores,
            this.#matchMasks,
          );
        }
      }
    } finally {
      for (let at = 0; at < termIds.length; at++) if (termIds[at] !== -1) positionOf[termIds[at]] = 0;
    }
  }

  /** The best `limit` of the `touchedCount` touched slots by score, ties to the one stored first. */
  #bestUnfiltered(touchedCount: number, limit: number): LexicalTopHit[] {
    const scores = this.#scores;
    const orders = this.#orders;
    const heap = new Int32Array(Math.min(Math.floor(limit), touchedCount));
    const kept = keepBest(this.#touched, touchedCount, scores, orders, heap);
    sortBestFirst(heap, kept, scores, orders);
    const hits: LexicalTopHit[] = [];
    for (let rank = 0; rank < kept; rank++) hits.push({ slot: heap[rank], score: scores[heap[rank]] });
    return hits;
  }

  /**
   * The best `limit` of the search's touched slots by score (ties to the one stored first) that
   * `accept` takes. The filter costs a metadata lookup a call, and offering slots in posting order
   * asked it about five times `limit` slots a search; it is now asked first about the unfiltered
   * best `limit` only. When it takes them all they are the answer, since every slot it was not asked
   * about ranks below each of them; when it refuses one, every touched slot is offered again with the
   * filter, as before. Either way the hits are the same.
   */
  #bestAccepted(touchedCount: number, limit: number, accept?: (docId: string) => boolean): LexicalTopHit[] {
    const hits = this.#bestUnfiltered(touchedCount, limit);
    if (accept === undefined || hits.every(({ slot }) => accept(this.#ids.at(slot)!))) return hits;
    return this.#bestFiltered(touchedCount, limit, accept);
  }

  /** Every touched slot offered to the filter, best kept: after it refused one of the unfiltered best. */
  #bestFiltered(touchedCount: number, limit: number, accept: (docId: string) => boolean): LexicalTopHit[] {
    const scores = this.#scores;
    const touched = this.#touched;
    const orders = this.#orders;
    const accepted = new TopK(limit);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i];
      const score = scores[slot];
      if (score < accepted.threshold() || !accept(this.#ids.at(slot)!)) continue;
      accepted.offer(slot, score, orders[slot]);
    }
    return accepted.drain();
  }

  /**
   * Per hit, the terms (in query order) its document has: from the masks the scan left, and for
   * the terms past the 31st, whose bit is shared, from a second scan of their postings over the
   * hits that have that bit. `termIds[at]` is the id of `terms[at]`, -1 when it was not searched.
   */
  #matchedTerms(
    hits: ReadonlyArray<{ slot: number }>,
    terms: readonly WeightedTerm[],
    termIds: Int32Array,
  ): string[][] {
    const masks = this.#matchMasks;
    const matched = hits.map(({ slot }) => {
      const own: string[] = [];
      const mask = masks[slot];
      for (let at = 0; at < Math.min(terms.length, OWN_BIT_TERMS); at++)
        if ((mask & (1 << at)) !== 0) own.push(terms[at].term);
      return own;
    });
    if (terms.length <= OWN_BIT_TERMS || !hits.some(({ slot }) => (masks[slot] & LATER_TERMS_BIT) !== 0))
      return matched;
    // Which hit each slot is (1-based) in the scores scratch, which the search has zeroed.
    const rankOf = this.#scores;
    hits.forEach(({ slot }, rank) => (rankOf[slot] = rank + 1));
    for (let at = OWN_BIT_TERMS; at < terms.length; at++) {
      const id = termIds[at];
      if (id === -1) continue;
      const start = this.#postingStarts[id];
      for (let cell = start; cell < start + this.#postingSizes[id]; cell++) {
        const rank = rankOf[this.#postingSlots[cell]];
        if (rank !== 0) matched[rank - 1].push(terms[at].term);
      }
    }
    for (const { slot } of hits) rankOf[slot] = 0;
    return matched;
  }

  /**
   * For each document (by id, each once, in the order given: a search's hits), the `parts` that
   * begin or end one of its longer plain words (core/text/wordParts.ts), in the order of `parts`,
   * each once with the alphabetically first such word. Read from each document's own terms in the arena (a few dozen;
   * the documents share most, so each distinct term is tested once), or, for the documents of a
   * loaded index not yet in the arena, from the postings of the words that hold a part.
   */
  partMatches(docIds: readonly string[], asked: readonly string[]): PartMatch[][] {
    const parts = partsToLookFor(asked);
    const found = docIds.map((): PartMatch[] => []);
    if (parts.length === 0 || docIds.length === 0) return found;
    const slots = docIds.map((docId) => this.#slotOf.get(docId));
    const firsts: (string | undefined)[][] = [];
    const keep = (rank: number, id: number, held: readonly number[]): void => {
      const term = this.#termNames.at(id)!;
      const first = (firsts[rank] ??= new Array<string | undefined>(parts.length));
      for (const at of held) if (first[at] === undefined || term < first[at]) first[at] = term;
    };
    // Each term id met is tested once per call: marked with this call's generation when it holds
    // no part (most), its positions in `parts` kept when it holds some.
    const generation = this.#nextPartGeneration();
    const marks = this.#partMarks;
    const heldBy = new Map<number, number[]>();
    const shortest = Math.min(...parts.map((part) => part.length));
    let inPostingsOnly = false;
    slots.forEach((slot, rank) => {
      if (slot === undefined) return;
      if (slot < this.#slotsOnlyInPostings) {
        inPostingsOnly = true;
        return;
      }
      const start = this.#docStart[slot];
      for (let cell = start; cell < start + this.#docTermCount[slot]; cell++) {
        const id = this.#arenaTerms[cell];
        if (marks[id] === generation) continue;
        let held = heldBy.get(id);
        if (held === undefined) {
          const term = this.#termNames.at(id)!;
          held = [];
          if (term.length > shortest)
            for (let at = 0; at < parts.length; at++) if (isWordPart(parts[at], term)) held.push(at);
          if (held.length === 0) {
            marks[id] = generation;
            continue;
          }
          heldBy.set(id, held);
        }
        keep(rank, id, held);
      }
    });
    if (inPostingsOnly) this.#partsFromPostings(slots, parts, keep);
    firsts.forEach((first, rank) =>
      first.forEach((term, at) => {
        if (term !== undefined) found[rank].push({ part: parts[at], term });
      }),
    );
    return found;
  }

  /** A new generation for #partMarks, sized to the terms; all marks cleared when the counter wraps. */
  #nextPartGeneration(): number {
    if (this.#partMarks.length < this.#termNames.length)
      this.#partMarks = growInt(this.#partMarks, Math.max(this.#termNames.length, this.#partMarks.length * 2));
    if (this.#partGeneration === 0x7fffffff) {
      this.#partMarks.fill(0);
      this.#partGeneration = 0;
    }
    return ++this.#partGeneration;
  }

  /** partMatches for the documents of a loaded index not yet in the arena: the holding words' postings. */
  #partsFromPostings(
    slots: readonly (number | undefined)[],
    parts: readonly string[],
    keep: (rank: number, id: number, held: readonly number[]) => void,
  ): void {
    this.#wordParts ??= new WordPartIndex();
    // Per word that holds a part: the positions in `parts` of the parts it holds.
    const holders = new Map<number, number[]>();
    this.#wordParts.termsHoldingEach(parts, this.#termNames).forEach((ids, at) => {
      for (const id of ids) {
        const held = holders.get(id);
        if (held === undefined) holders.set(id, [at]);
        else held.push(at);
      }
    });
    // Which document each slot is (1-based) in the scores scratch, zero between searches (as #matchedTerms).
    const rankOf = this.#scores;
    const marked: number[] = [];
    slots.forEach((slot, rank) => {
      if (slot === undefined || slot >= this.#slotsOnlyInPostings) return;
      rankOf[slot] = rank + 1;
      marked.push(slot);
    });
    try {
      for (const [id, held] of holders) {
        const start = this.#postingStarts[id];
        const end = start + this.#postingSizes[id];
        if (end - start <= LINEAR_PART_SCAN * marked.length) {
          for (let cell = start; cell < end; cell++) {
            const rank = rankOf[this.#postingSlots[cell]];
            if (rank !== 0) keep(rank - 1, id, held);
          }
          continue;
        }
        // A common word's posting is long: look each document up instead. Until the index holds its
        // loaded documents in the arena, every run is in ascending slot order (checked at the load;
        // later documents take new, higher slots, and a removal materialises first).
        for (const slot of marked) if (this.#postingHas(start, end, slot)) keep(rankOf[slot] - 1, id, held);
      }
    } finally {
      for (const slot of marked) rankOf[slot] = 0;
    }
  }

  /** Whether the ascending run of posting cells [start, end) holds `slot` (binary search). */
  #postingHas(start: number, end: number, slot: number): boolean {
    let low = start;
    let high = end - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.#postingSlots[middle];
      if (found === slot) return true;
      if (found < slot) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  #internTerm(term: string): number {
    let id = this.#termIdOf.get(term);
    if (id === undefined) {
      id = this.#termNames.length;
      this.#termNames.push(term);
      this.#termIdOf.set(term, id);
      if (id === this.#postingSizes.length) {
        this.#postingStarts = growInt(this.#postingStarts, id * 2);
        this.#postingSizes = growInt(this.#postingSizes, id * 2);
        this.#postingRooms = growInt(this.#postingRooms, id * 2);
      }
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
    const tfs = new Uint16Array(capacity);
    tfs.set(this.#arenaTfs.subarray(0, this.#arenaUsed));
    this.#arenaTerms = terms;
    this.#arenaTfs = tfs;
  }

  /**
   * Copies every live document's terms to the front of a new arena of the same room: never in
   * place, since a frozen copy of the index (freeze) may still be reading the old one.
   */
  #compactArena(): void {
    const terms = new Int32Array(this.#arenaTerms.length);
    const tfs = new Uint16Array(this.#arenaTfs.length);
    let used = 0;
    for (let slot = 0; slot < this.#ids.length; slot++) {
      const count = this.#docTermCount[slot];
      if (count === 0) continue;
      const start = this.#docStart[slot];
      terms.set(this.#arenaTerms.subarray(start, start + count), used);
      tfs.set(this.#arenaTfs.subarray(start, start + count), used);
      this.#docStart[slot] = used;
      used += count;
    }
    this.#arenaTerms = terms;
    this.#arenaTfs = tfs;
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
      this.#matchMasks = growInt(this.#matchMasks, capacity);
    }
    return slot;
  }

  #appendPosting(termId: number, slot: number, units: number): void {
    const size = this.#postingSizes[termId];
    if (size === this.#postingRooms[termId]) this.#movePosting(termId, Math.max(4, size * 2));
    const cell = this.#postingStarts[termId] + size;
    this.#postingSlots[cell] = slot;
    this.#postingTfs[cell] = units;
    this.#postingSizes[termId] = size + 1;
  }

  /** Moves a full run to the columns' end with room for `room` cells (compacting or growing them first). */
  #movePosting(termId: number, room: number): void {
    if (this.#postingsUsed + room > this.#postingSlots.length) {
      if (this.#postingsWaste * 3 > this.#postingsUsed) this.#compactPostings();
      if (this.#postingsUsed + room > this.#postingSlots.length) {
        const capacity = Math.max(this.#postingSlots.length * 2, this.#postingsUsed + room);
        const slots = new Int32Array(capacity);
        slots.set(this.#postingSlots.subarray(0, this.#postingsUsed));
        const tfs = new Uint16Array(capacity);
        tfs.set(this.#postingTfs.subarray(0, this.#postingsUsed));
        this.#postingSlots = slots;
        this.#postingTfs = tfs;
      }
    }
    const start = this.#postingStarts[termId];
    const size = this.#postingSizes[termId];
    const to = this.#postingsUsed;
    this.#postingSlots.copyWithin(to, start, start + size);
    this.#postingTfs.copyWithin(to, start, start + size);
    this.#postingsWaste += this.#postingRooms[termId];
    this.#postingStarts[termId] = to;
    this.#postingRooms[termId] = room;
    this.#postingsUsed = to + room;
  }

  /** Moves every run to the front, in column order (so each moves only towards the front), each keeping its room. */
  #compactPostings(): void {
    const termCount = this.#termNames.length;
    const order = new Int32Array(termCount);
    for (let term = 0; term < termCount; term++) order[term] = term;
    const starts = this.#postingStarts;
    order.sort((a, b) => starts[a] - starts[b]);
    let used = 0;
    for (const term of order) {
      const start = starts[term];
      const size = this.#postingSizes[term];
      this.#postingSlots.copyWithin(used, start, start + size);
      this.#postingTfs.copyWithin(used, start, start + size);
      starts[term] = used;
      used += this.#postingRooms[term];
    }
    this.#postingsUsed = used;
    this.#postingsWaste = 0;
  }

  /** Swap-with-last removal: postings are unordered, scoring does not need order. */
  #removePosting(termId: number, slot: number): void {
    const start = this.#postingStarts[termId];
    const last = start + this.#postingSizes[termId] - 1;
    const slots = this.#postingSlots;
    let index = start;
    while (index <= last && slots[index] !== slot) index++;
    if (index > last)
      throw new Error(
        `Lexical index out of step: document slot ${slot} is missing from the posting of "${this.#termNames.at(termId)}".`,
      );
    slots[index] = slots[last];
    this.#postingTfs[index] = this.#postingTfs[last];
    this.#postingSizes[termId] = last - start;
  }
}

/**
 * Checks that the runs `postingSizes` describes fit in `postingDocuments`, each listing document
 * numbers below `count` in increasing order (so no document twice), and writes where each starts
 * and its size; returns the cells the runs use. A function of its own so it is optimised early.
 */
function checkPostings(
  postingSizes: Int32Array,
  postingDocuments: Int32Array,
  count: number,
  starts: Int32Array,
  sizes: Int32Array,
): number {
  const cells = postingDocuments.length;
  let offset = 0;
  for (let term = 0; term < postingSizes.length; term++) {
    const size = postingSizes[term];
    if (size < 0 || size > cells - offset)
      throw new LexicalDocumentsError(`Lexical postings count more entries than the ${cells} they hold.`);
    let previous = -1;
    for (let cell = offset; cell < offset + size; cell++) {
      const doc = postingDocuments[cell];
      if (doc <= previous || doc >= count)
        throw new LexicalDocumentsError(
          `Lexical postings name document ${doc} of ${count} after ${previous} for term ${term}.`,
        );
      previous = doc;
    }
    starts[term] = offset;
    sizes[term] = size;
    offset += size;
  }
  return offset;
}

/**
 * partMatches on a loaded index's documents scans a posting of up to this many cells per document
 * asked about; a longer one is searched for each document instead.
 */
const LINEAR_PART_SCAN = 8;

/** How LexicalIndex.search may treat its filter. */
export interface SearchOptions {
  /**
   * The filter only answers (no side effects, never throws, the same answer for a document within
   * the search): after it refuses one of the unfiltered best, the search may ask it about other
   * documents, in another order, than searchExhaustive would. The hits are the same either way.
   */
  pureFilter?: boolean;
}

/**
 * Posting cells read by an index's searches: `scannedCells` are added into the scores (every cell
 * of an unpruned search, the first pass's of a pruned one); `survivorCells` are read by a pruned
 * search's second pass, which adds only its survivors' cells.
 */
export interface SearchWork {
  /** Pruned searches made again for more unfiltered best after the filter refused one (#prunedFiltered). */
  filteredRetries: number;
  /** Pruned searches whose filter refused one of the best and that then scanned every posting (searchAll). */
  refusedScans: number;
  searches: number;
  pruned: number;
  scannedCells: number;
  survivorCells: number;
  /** Cells a pruned search's bounding pass read for its survivors after the first pass. */
  boundCells: number;
  /** Documents a pruned search's second pass scored. */
  survivors: number;
}

/** A query's terms as a search scans them (LexicalIndex.#queryTerms). */
interface QueryTerms {
  /** Per query position, its term's id; -1 for a term no document has or a weight that is not positive. */
  termIds: Int32Array;
  /** Per query position, weight · idf · (k1 + 1): its contribution's scale. */
  idfWeights: Float64Array;
  /** Posting cells of the searched terms. */
  postings: number;
  normBase: number;
  normPerLength: number;
}

/**
 * Below this many posting cells a search scans them all: pruning's two passes and bounds cost more
 * than they save (bench/prunedSearch.ts).
 */
const MIN_PRUNED_POSTINGS = 16_384;

/** Cells of a document in the arena, about (35 at 100,000 bench memories), and the query's terms looked up for each. */
const SURVIVOR_CELLS = 600;
/** How much more of the unfiltered best each retry of a refused search ranks (#prunedFiltered). */
const FILTERED_ROOM_GROWTH = 4;
/** A binary search of a posting for a loaded document, in cells of a scan: about log2 of a long run's size. */
const LOADED_SURVIVOR_CELLS = 60;

/**
 * The first pass checks whether it can stop before a term whose posting is at least this fraction
 * of the slots touched so far (finding the k-th best sum reads each of those once).
 */
const CHECK_BEFORE_POSTING = 4;

/** The score of the `heap.length`-th best touched slot, or 0 when fewer are touched (keepBest). */
function kthBestScore(
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  orders: Float64Array,
  heap: Int32Array,
): number {
  const kept = keepBest(touched, count, scores, orders, heap);
  return kept < heap.length ? 0 : scores[heap[0]];
}

/** A slot among a search's best and its BM25 score. */
interface LexicalTopHit {
  slot: number;
  score: number;
}

interface ScanColumns {
  slots: Int32Array<ArrayBufferLike>;
  tfs: Uint16Array<ArrayBufferLike>;
  scores: Float64Array;
  masks: Int32Array;
  lengths: Float64Array;
  touched: Int32Array;
}

/**
 * Adds one term's BM25 contributions over its posting cells [start, end) and marks `bit` in each
 * document's match mask; returns the touched count. A function of its own, not a loop inside
 * search: in a fresh process it runs about three times faster (a micro-benchmark of 136,000 cells:
 * 3–5 against 9–14 ms), since the small function is optimised early, not with the whole search.
 */
function scanPosting(
  columns: ScanColumns,
  start: number,
  end: number,
  bit: number,
  idfWeight: number,
  normBase: number,
  normPerLength: number,
  touchedCount: number,
): number {
  const { slots, tfs, scores, masks, lengths, touched } = columns;
  for (let i = start; i < end; i++) {
    const slot = slots[i];
    const units = tfs[i];
    const mask = masks[slot];
    if (mask === 0) touched[touchedCount++] = slot;
    masks[slot] = mask | bit;
    scores[slot] += (idfWeight * units) / (units + normBase + normPerLength * lengths[slot]);
  }
  return touchedCount;
}

function grow(array: Float64Array<ArrayBufferLike>, capacity: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(capacity);
  grown.set(array);
  return grown;
}

function growInt(array: Int32Array<ArrayBufferLike>, capacity: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}
