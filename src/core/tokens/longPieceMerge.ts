/**
 * Byte-pair merging for a long piece in O(n log n): the same merges in the same order as the
 * scan in tokenCounter.ts (the lowest rank, the leftmost of equals), found with a heap instead of a
 * scan of every pair per merge. A piece is one run of letters, digits or symbols; an unbroken run
 * of 100 KB (a pasted minified line, a base64 blob) took 17–30 s with the scan, blocking the
 * memory process for every client.
 *
 * Parts are a linked list indexed by their first byte's position, so "leftmost" is the smaller
 * index. A heap entry names the left part of a pair and that part's version when it was pushed;
 * a merge bumps the versions of the merged part, of the part it absorbed and of its left
 * neighbour, whose pairs changed or are gone, so their older entries are skipped when they surface.
 */
export function mergedPartsOfLongPiece(bytes: string, ranks: ReadonlyMap<string, number>): number {
  const length = bytes.length;
  const parts: string[] = bytes.split('');
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  const version = new Uint32Array(length);
  for (let index = 0; index < length; index++) {
    next[index] = index + 1 < length ? index + 1 : -1;
    previous[index] = index - 1;
  }
  const heap = new PairHeap();
  const push = (left: number): void => {
    const right = next[left];
    if (right < 0) return;
    const rank = ranks.get(parts[left] + parts[right]);
    if (rank !== undefined) heap.push(rank, left, version[left]);
  };
  for (let index = 0; index + 1 < length; index++) push(index);
  let count = length;
  while (heap.size > 0) {
    const { left, pushedVersion } = heap.pop();
    if (pushedVersion !== version[left]) continue;
    const right = next[left];
    parts[left] += parts[right];
    const after = next[right];
    next[left] = after;
    if (after >= 0) previous[after] = left;
    count -= 1;
    version[right] += 1;
    version[left] += 1;
    push(left);
    const before = previous[left];
    if (before >= 0) {
      version[before] += 1;
      push(before);
    }
  }
  return count;
}

/** A binary min-heap of (rank, left index) with the version each entry was pushed at. */
class PairHeap {
  private ranks: number[] = [];
  private lefts: number[] = [];
  private versions: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  push(rank: number, left: number, pushedVersion: number): void {
    this.ranks.push(rank);
    this.lefts.push(left);
    this.versions.push(pushedVersion);
    this.up(this.ranks.length - 1);
  }

  pop(): { left: number; pushedVersion: number } {
    const top = { left: this.lefts[0], pushedVersion: this.versions[0] };
    const last = this.ranks.length - 1;
    this.move(last, 0);
    this.ranks.pop();
    this.lefts.pop();
    this.versions.pop();
    if (this.ranks.length > 0) this.down(0);
    return top;
  }

  private before(a: number, b: number): boolean {
    return this.ranks[a] < this.ranks[b] || (this.ranks[a] === this.ranks[b] && this.lefts[a] < this.lefts[b]);
  }

  private up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private down(index: number): void {
    const size = this.ranks.length;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < size && this.before(left, smallest)) smallest = left;
      if (right < size && this.before(right, smallest)) smallest = right;
      if (smallest === index) return;
      this.swap(index, smallest);
      index = smallest;
    }
  }

  private move(from: number, to: number): void {
    this.ranks[to] = this.ranks[from];
    this.lefts[to] = this.lefts[from];
    this.versions[to] = this.versions[from];
  }

  private swap(a: number, b: number): void {
    [this.ranks[a], this.ranks[b]] = [this.ranks[b], this.ranks[a]];
    [this.lefts[a], this.lefts[b]] = [this.lefts[b], this.lefts[a]];
    [this.versions[a], this.versions[b]] = [this.versions[b], this.versions[a]];
  }
}
