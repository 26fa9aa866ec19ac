/**
 * Bounded min-heap keeping the best `capacity` entries by score. Ties go to the lower
 * `order` (earlier insertion), so results are deterministic. O(n log k) for n offers.
 */
export class TopK {
  readonly #capacity: number;
  readonly #slots: number[] = [];
  readonly #scores: number[] = [];
  readonly #orders: number[] = [];

  constructor(capacity: number) {
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  get size(): number {
    return this.#slots.length;
  }

  /** True when (scoreA, orderA) ranks below (scoreB, orderB). */
  #worse(a: number, b: number): boolean {
    const sa = this.#scores[a];
    const sb = this.#scores[b];
    return sa < sb || (sa === sb && this.#orders[a] > this.#orders[b]);
  }

  /** Lowest score a newcomer must beat once the heap is full; -Infinity before. */
  threshold(): number {
    return this.#slots.length < this.#capacity ? -Infinity : this.#scores[0];
  }

  offer(slot: number, score: number, order: number): void {
    if (this.#capacity === 0) return;
    if (this.#slots.length < this.#capacity) {
      this.#slots.push(slot);
      this.#scores.push(score);
      this.#orders.push(order);
      this.#siftUp(this.#slots.length - 1);
      return;
    }
    const rootScore = this.#scores[0];
    if (score < rootScore || (score === rootScore && order > this.#orders[0])) return;
    this.#slots[0] = slot;
    this.#scores[0] = score;
    this.#orders[0] = order;
    this.#siftDown(0);
  }

  /** Entries best first. */
  drain(): Array<{ slot: number; score: number }> {
    const indexes = this.#slots.map((_, i) => i);
    indexes.sort((a, b) => (this.#worse(a, b) ? 1 : this.#worse(b, a) ? -1 : 0));
    return indexes.map((i) => ({ slot: this.#slots[i], score: this.#scores[i] }));
  }

  #swap(i: number, j: number): void {
    [this.#slots[i], this.#slots[j]] = [this.#slots[j], this.#slots[i]];
    [this.#scores[i], this.#scores[j]] = [this.#scores[j], this.#scores[i]];
    [this.#orders[i], this.#orders[j]] = [this.#orders[j], this.#orders[i]];
  }

  #siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#worse(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const n = this.#slots.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.#worse(left, smallest)) smallest = left;
      if (right < n && this.#worse(right, smallest)) smallest = right;
      if (smallest === i) return;
      this.#swap(i, smallest);
      i = smallest;
    }
  }
}
