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

/** Query terms with a bit of their own in a search's match masks; later terms share the last bit. */
export const OWN_BIT_TERMS = 31;
export const LATER_TERMS_BIT = 1 << 31;

/** The match-mask bit of the query term at position `at`. */
export function termBit(at: number): number {
  return at < OWN_BIT_TERMS ? 1 << at : LATER_TERMS_BIT;
}

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
 * reaches `cut`, flagging each in `flags`; clears every touched document's mask and the dropped
 * ones' partial scores. Returns how many survive.
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
    masks[slot] = 0;
    if (scores[slot] + restBound >= cut) {
      flags[slot] = 1;
      touched[kept++] = slot;
    } else scores[slot] = 0;
  }
  return kept;
}

/**
 * Drops, from the `count` survivors at the front of `touched`, those whose partial score plus
 * `restBound` no longer reaches `cut`, clearing their score and flag. Returns how many remain.
 */
export function dropSurvivors(
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  flags: Uint8Array,
  restBound: number,
  cut: number,
): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const slot = touched[i];
    if (scores[slot] + restBound >= cut) touched[kept++] = slot;
    else {
      scores[slot] = 0;
      flags[slot] = 0;
    }
  }
  return kept;
}

/** Adds one term's contributions into the flagged documents' partial scores (the bounds' pass: no masks). */
export function addToSurvivors(
  slots: Int32Array<ArrayBufferLike>,
  tfs: Uint16Array<ArrayBufferLike>,
  flags: Uint8Array,
  scores: Float64Array,
  lengths: Float64Array,
  start: number,
  end: number,
  idfWeight: number,
  normBase: number,
  normPerLength: number,
): void {
  for (let i = start; i < end; i++) {
    const slot = slots[i];
    if (flags[slot] === 0) continue;
    const units = tfs[i];
    scores[slot] += (idfWeight * units) / (units + normBase + normPerLength * lengths[slot]);
  }
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

/**
 * A survivor's exact score and mask from its own terms in the arena: each of its cells whose term
 * the query has (`positionOf[term]`, 1-based, chained through `nextPosition` for a term asked twice)
 * gives its frequency to `unitsAt`, then the contributions are added in query order from zero, by
 * the scan's expression, so the sum is the scan's bit for bit. `unitsAt` is -1 throughout before and after.
 */
export function scoreFromArena(
  slot: number,
  start: number,
  end: number,
  arenaTerms: Int32Array<ArrayBufferLike>,
  arenaTfs: Uint16Array<ArrayBufferLike>,
  positionOf: Int32Array,
  nextPosition: Int32Array,
  unitsAt: Int32Array,
  idfWeights: Float64Array,
  normBase: number,
  normPerLength: number,
  lengths: Float64Array,
  scores: Float64Array,
  masks: Int32Array,
): void {
  for (let cell = start; cell < end; cell++) {
    let position = positionOf[arenaTerms[cell]];
    while (position !== 0) {
      unitsAt[position - 1] = arenaTfs[cell];
      position = nextPosition[position - 1];
    }
  }
  const length = lengths[slot];
  let score = 0;
  let mask = 0;
  for (let at = 0; at < unitsAt.length; at++) {
    const units = unitsAt[at];
    if (units < 0) continue;
    unitsAt[at] = -1;
    mask |= termBit(at);
    score += (idfWeights[at] * units) / (units + normBase + normPerLength * length);
  }
  scores[slot] = score;
  masks[slot] = mask;
}

/**
 * scoreFromArena for a loaded document not yet in the arena: each query term's run, in ascending
 * slot order until the index changes a loaded document (LexicalIndex.#partsFromPostings), is
 * searched for it. `termIds[at]` is -1 for a term not searched.
 */
export function scoreFromPostings(
  slot: number,
  termIds: Int32Array,
  starts: Int32Array,
  sizes: Int32Array<ArrayBufferLike>,
  slots: Int32Array<ArrayBufferLike>,
  tfs: Uint16Array<ArrayBufferLike>,
  idfWeights: Float64Array,
  normBase: number,
  normPerLength: number,
  lengths: Float64Array,
  scores: Float64Array,
  masks: Int32Array,
): void {
  const length = lengths[slot];
  let score = 0;
  let mask = 0;
  for (let at = 0; at < termIds.length; at++) {
    const id = termIds[at];
    if (id === -1) continue;
    let low = starts[id];
    let high = low + sizes[id] - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = slots[middle];
      if (found < slot) low = middle + 1;
      else if (found > slot) high = middle - 1;
      else {
        const units = tfs[middle];
        mask |= termBit(at);
        score += (idfWeights[at] * units) / (units + normBase + normPerLength * length);
        break;
      }
    }
  }
  scores[slot] = score;
  masks[slot] = mask;
}
