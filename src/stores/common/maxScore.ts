/**
 * The kernels of LexicalIndex's pruned search (MaxScore, in two passes over unordered postings).
 *
 * A term's BM25 contribution to a document, idfWeight·u / (u + normBase + normPerLength·length),
 * rises with its frequency u (when normBase + normPerLength·length ≥ 0) and falls with the length,
 * so a term's largest frequency and its shortest document bound it for every document. The first
 * pass adds the terms with the highest bounds into the scores (any order: these sums only bound),
 * until the k-th best sum so far beats what all the other terms together can add: a document none of
 * the scanned terms holds can then not reach the best k. The documents the first pass met whose sum
 * plus the rest's bound still reaches that k-th sum survive; the second pass adds every term in query
 * order into the survivors only, so their scores are the same floats, bit for bit, as a full scan's.
 *
 * Functions of their own over typed arrays, as scanPosting and bestSlots.ts, so they are optimised
 * within the first search.
 */

/**
 * Relative room left around every bound: a float sum of a few hundred positive terms is within
 * about 1e-13 of the real one, the bounds are compared with a margin ten thousand times wider.
 */
export const BOUND_SLACK = 1e-9;

/**
 * A term's largest frequency (tf units) and shortest document length over the posting cells
 * [start, end), written to `units[term]` and `lengths[term]`. A NaN length is skipped (its
 * document scores NaN, which no search keeps).
 */
export function measureTermBound(
  slots: Int32Array<ArrayBufferLike>,
  tfs: Uint16Array<ArrayBufferLike>,
  docLengths: Float64Array<ArrayBufferLike>,
  start: number,
  end: number,
  term: number,
  units: Uint16Array,
  lengths: Float64Array,
): void {
  let most = 0;
  let shortest = Infinity;
  for (let cell = start; cell < end; cell++) {
    const unit = tfs[cell];
    if (unit > most) most = unit;
    const length = docLengths[slots[cell]];
    if (length < shortest) shortest = length;
  }
  units[term] = most;
  lengths[term] = shortest;
}

/**
 * Keeps, at the front of `touched`, the first pass's documents whose partial score plus `restBound`
 * reaches `cut`, flagging each in `flags`; clears every touched document's partial score and mask
 * (the second pass adds from zero, as a full scan does). Returns how many survive.
 */
export function keepSurvivors(
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  masks: Int32Array,
  flags: Uint8Array,
  restBound: number,
  cut: number,
): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i];
    const reach = scores[slot] + restBound;
    scores[slot] = 0;
    masks[slot] = 0;
    if (reach >= cut) {
      flags[slot] = 1;
      touched[kept++] = slot;
    }
  }
  return kept;
}

/**
 * scanPosting restricted to the flagged documents: the same contribution, computed by the same
 * expression in the same order per document, so the sums are the full scan's.
 */
export function scanSurvivors(
  slots: Int32Array<ArrayBufferLike>,
  tfs: Uint16Array<ArrayBufferLike>,
  flags: Uint8Array,
  scores: Float64Array,
  masks: Int32Array,
  lengths: Float64Array,
  start: number,
  end: number,
  bit: number,
  idfWeight: number,
  normBase: number,
  normPerLength: number,
): void {
  for (let i = start; i < end; i++) {
    const slot = slots[i];
    if (flags[slot] === 0) continue;
    const units = tfs[i];
    masks[slot] |= bit;
    scores[slot] += (idfWeight * units) / (units + normBase + normPerLength * lengths[slot]);
  }
}

/** Sets `flags[touched[i]]` back to zero for the first `count` slots. */
export function zeroFlags(flags: Uint8Array, touched: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) flags[touched[i]] = 0;
}
