import { NumberedStrings, type StringList } from './stringList.ts';

/**
 * Key lists (with their sorting permutation, or null) found valid, by identity: a persisted index's
 * memory ids are checked once though the metas and the full-text index both load them. Sound
 * because every holder takes its keys and permutation for good and never changes them.
 */
const VALID_PAIRS = new WeakMap<StringList, Set<Int32Array | null>>();

/**
 * Numbers by string key (a document's slot, a term's number, a memory's row) for keys read from a
 * persisted index, without building a Map of them at load: the file stores its keys with the
 * permutation that sorts them, so a key is found by binary search, and its number is its position
 * among the loaded keys. Keys set after the load (or set to another number) live in a Map beside
 * them; loaded keys that were deleted are flagged. At 100,000 memories the Maps this replaces were
 * a third of a fresh process's first recall.
 *
 * Order is JavaScript's string order (UTF-16 code units), the same on every machine.
 */
export class SortedKeyIndex {
  readonly #keys: StringList;
  /** `#sorted[i]` is the position in `#keys` of the i-th smallest key; null when `#keys` is sorted itself. */
  readonly #sorted: Int32Array | null;
  readonly #removed: Uint8Array;
  readonly #added = new Map<string, number>();
  #size: number;

  /** `keys` and `sorted` are taken as they are (never changed here): check them with `problemWith` first. */
  constructor(keys: StringList = [], sorted: Int32Array | null = null) {
    this.#keys = keys;
    this.#sorted = sorted;
    this.#removed = new Uint8Array(keys.length);
    this.#size = keys.length;
  }

  /**
   * Why `keys` in `sorted` order (or in their own order when null) are not strictly increasing, or
   * `sorted` not a permutation of their positions; null when they make a valid index. Strictly
   * increasing also means no key is there twice.
   */
  static problemWith(keys: StringList, sorted: Int32Array | null): string | null {
    if (VALID_PAIRS.get(keys)?.has(sorted) === true) return null;
    const problem = SortedKeyIndex.#problemWith(keys, sorted);
    if (problem === null) {
      let orders = VALID_PAIRS.get(keys);
      if (orders === undefined) VALID_PAIRS.set(keys, (orders = new Set()));
      orders.add(sorted);
    }
    return problem;
  }

  static #problemWith(keys: StringList, sorted: Int32Array | null): string | null {
    if (sorted !== null && sorted.length !== keys.length)
      return `${sorted.length} sorted positions for ${keys.length} keys`;
    for (let rank = 0; rank < keys.length; rank++) {
      const position = sorted === null ? rank : sorted[rank];
      if (position < 0 || position >= keys.length) return `sorted position ${position} of ${keys.length} keys`;
    }
    // Keys read in place are compared in place: a loaded index's 130,000 terms make no string here.
    if (keys instanceof NumberedStrings) {
      const disorder = keys.firstDisorder(sorted);
      if (disorder === null) return null;
      const key = keys.at(sorted === null ? disorder.rank : sorted[disorder.rank]);
      return disorder.repeated ? `the key "${key}" is there twice` : `the keys are not in order at "${key}"`;
    }
    let previous: string | undefined;
    for (let rank = 0; rank < keys.length; rank++) {
      const key = keys.at(sorted === null ? rank : sorted[rank])!;
      if (previous !== undefined && !(previous < key))
        return previous === key ? `the key "${key}" is there twice` : `the keys are not in order at "${key}"`;
      previous = key;
    }
    return null;
  }

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    const added = this.#added.get(key);
    if (added !== undefined) return added;
    const position = this.#loadedPosition(key);
    return position === -1 || this.#removed[position] === 1 ? undefined : position;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: number): void {
    const had = this.has(key);
    const position = this.#loadedPosition(key);
    if (position !== -1 && position === value) {
      this.#added.delete(key);
      this.#removed[position] = 0;
    } else {
      if (position !== -1) this.#removed[position] = 1;
      this.#added.set(key, value);
    }
    if (!had) this.#size++;
  }

  delete(key: string): boolean {
    const had = this.has(key);
    this.#added.delete(key);
    const position = this.#loadedPosition(key);
    if (position !== -1) this.#removed[position] = 1;
    if (had) this.#size--;
    return had;
  }

  /** Every key's number: the loaded keys still present in load order, then the others in the order they were set. */
  *values(): Generator<number> {
    for (let position = 0; position < this.#keys.length; position++) if (this.#removed[position] === 0) yield position;
    yield* this.#added.values();
  }

  /** Where `key` is among the loaded keys (deleted or not), -1 when it is not one of them. */
  #loadedPosition(key: string): number {
    const keys = this.#keys;
    const sorted = this.#sorted;
    if (keys instanceof NumberedStrings) return this.#packedPosition(keys, key);
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const position = sorted === null ? middle : sorted[middle];
      const probe = keys.at(position)!;
      if (probe === key) return position;
      if (probe < key) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** #loadedPosition over keys read in place: each probe compared where it lies, no string made. */
  #packedPosition(keys: NumberedStrings, key: string): number {
    const sorted = this.#sorted;
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const position = sorted === null ? middle : sorted[middle];
      const order = keys.compareTo(position, key);
      if (order === 0) return position;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** The permutation that sorts `keys` (string order), as a persisted index stores it beside them. */
export function sortedOrder(keys: readonly string[]): Int32Array {
  const order = Int32Array.from(keys, (_, position) => position);
  order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  return order;
}
