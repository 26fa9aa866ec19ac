/**
 * The best slots of a full-text search, by score, ties to the lower order (the one stored first):
 * the same slots in the same order as offering every touched slot to a TopK and draining it
 * (test/stores/common/bestSlots.test.ts compares the two).
 *
 * Functions of their own over typed arrays, not loops inside LexicalIndex.search and a TopK's
 * methods per slot. A search at 100,000 memories touches up to about 100,000 slots. In a fresh
 * process the big search function was deoptimised at each of its first few dozen calls (type
 * feedback still missing for the code after its posting loop) and ran the rest of that call, these
 * loops included, unoptimised; small monomorphic functions are optimised within their first call
 * and stay so (as scanPosting, for the same reason). Once warm, the worst kept score held in locals
 * instead of read through the heap per slot makes the selection about 3× cheaper than the TopK's.
 */

/** Whether slot `a` ranks below slot `b`: a lower score, or the same score and stored later. */
function worse(scores: Float64Array, orders: Float64Array, a: number, b: number): boolean {
  const sa = scores[a];
  const sb = scores[b];
  return sa < sb || (sa === sb && orders[a] > orders[b]);
}

/** Restores the min-heap (worst kept slot at the root) below `at` in `heap[0, size)`. */
function siftDown(heap: Int32Array, size: number, at: number, scores: Float64Array, orders: Float64Array): void {
  let i = at;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < size && worse(scores, orders, heap[left], heap[smallest])) smallest = left;
    if (right < size && worse(scores, orders, heap[right], heap[smallest])) smallest = right;
    if (smallest === i) return;
    const slot = heap[i];
    heap[i] = heap[smallest];
    heap[smallest] = slot;
    i = smallest;
  }
}

function siftUp(heap: Int32Array, at: number, scores: Float64Array, orders: Float64Array): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(scores, orders, heap[i], heap[parent])) return;
    const slot = heap[i];
    heap[i] = heap[parent];
    heap[parent] = slot;
    i = parent;
  }
}

/**
 * Keeps in `heap` (room for at most `heap.length` slots) the best of the `count` slots listed in
 * `touched`, as a min-heap; returns how many it holds. A slot whose score is NaN is never kept,
 * as a TopK, whose threshold it does not reach, never keeps one.
 */
export function keepBest(
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  orders: Float64Array,
  heap: Int32Array,
): number {
  const room = heap.length;
  let size = 0;
  let at = 0;
  for (; at < count && size < room; at++) {
    const slot = touched[at];
    if (!(scores[slot] >= -Infinity)) continue;
    heap[size] = slot;
    siftUp(heap, size, scores, orders);
    size++;
  }
  if (size === 0) return 0;
  // Full: most slots score below the worst kept one, which is held in locals rather than read
  // through the heap for every slot.
  let worst = heap[0];
  let worstScore = scores[worst];
  for (; at < count; at++) {
    const slot = touched[at];
    const score = scores[slot];
    if (!(score >= worstScore)) continue;
    if (score === worstScore && orders[slot] > orders[worst]) continue;
    heap[0] = slot;
    siftDown(heap, size, 0, scores, orders);
    worst = heap[0];
    worstScore = scores[worst];
  }
  return size;
}

/** Orders the min-heap `heap[0, size)` best first, in place (a heap sort). */
export function sortBestFirst(heap: Int32Array, size: number, scores: Float64Array, orders: Float64Array): void {
  for (let end = size - 1; end > 0; end--) {
    const worst = heap[0];
    heap[0] = heap[end];
    heap[end] = worst;
    siftDown(heap, end, 0, scores, orders);
  }
}

/** Sets `cells[touched[i]]` back to zero for the first `count` touched slots. */
export function zeroScores(cells: Float64Array, touched: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) cells[touched[i]] = 0;
}

/** zeroScores for the match masks (a second function: one array type each stays monomorphic). */
export function zeroMasks(cells: Int32Array, touched: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) cells[touched[i]] = 0;
}
