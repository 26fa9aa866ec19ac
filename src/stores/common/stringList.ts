/**
 * Lists of strings that a persisted index reads in place. A file keeps every distinct string once,
 * as one run of characters and each string's length; the memory ids and term names are columns of
 * numbers into that table. Making a JavaScript string of each at load was 230,000 strings at
 * 100,000 memories: half the CPU of decoding the file and most of a fresh process's collector work
 * before its first answer (bench/coldStart.ts; docs/benchmarks.md, "Strings read in place"). Here a
 * string is made when someone asks for it: a binary search's probes, a hit's id, a term's name.
 */

/** Read access to a list of strings: an array, or strings read in place (undefined for a position it does not hold). */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/**
 * A string table read in place: every string's characters one after another in `characters`,
 * string `n` from `starts[n]` to `starts[n + 1]`. Comparisons read `codes`, the same characters as
 * UTF-16 code units in a typed array (the file's own bytes, Latin-1 or UTF-16), which a loop reads
 * without asking the string for its representation at each character, as `charCodeAt` on a large
 * decoded (external) string does.
 */
export class PackedStrings implements StringList {
  readonly #characters: string;
  readonly #codes: Uint8Array | Uint16Array;
  readonly #starts: Int32Array;

  private constructor(characters: string, codes: Uint8Array | Uint16Array, starts: Int32Array) {
    this.#characters = characters;
    this.#codes = codes;
    this.#starts = starts;
  }

  /**
   * The table `lengths` cut `characters` into, `codes` being the same characters as code units (made
   * here when not given); null when a length is negative, the lengths do not add up to the
   * characters, or the codes are not as many.
   */
  static fromLengths(
    characters: string,
    lengths: Int32Array,
    codes: Uint8Array | Uint16Array = codeUnitsOf(characters),
  ): PackedStrings | null {
    const starts = startsOf(lengths, characters.length);
    if (starts === null || codes.length !== characters.length) return null;
    return new PackedStrings(characters, codes, starts);
  }

  get length(): number {
    return this.#starts.length - 1;
  }

  at(index: number): string | undefined {
    if (index >>> 0 !== index || index >= this.#starts.length - 1) return undefined;
    return this.#characters.slice(this.#starts[index], this.#starts[index + 1]);
  }

  /**
   * Calls `hold(index, at)` for each entry `from <= index < to` whose string (number
   * `numbers[index * stride]`, or `index` itself when `numbers` is null) is longer than `parts.of[at]`
   * and begins or ends with it: one pass over the strings for all the parts, each string's first
   * and last code unit telling which parts to test, so a string is read once, not once a part.
   */
  forEachEdgeHolder(
    numbers: Int32Array | null,
    stride: number,
    from: number,
    to: number,
    parts: EdgeParts,
    hold: (index: number, at: number) => void,
  ): void {
    const codes = this.#codes;
    const starts = this.#starts;
    const { byFirst, byLast, of, shortest } = parts;
    for (let index = from; index < to; index++) {
      const position = numbers === null ? index : numbers[index * stride];
      const start = starts[position];
      const end = starts[position + 1];
      if (end - start <= shortest) continue;
      const first = codes[start];
      const last = codes[end - 1];
      let candidates = (first < byFirst.length ? byFirst[first] : 0) | (last < byLast.length ? byLast[last] : 0);
      while (candidates !== 0) {
        const at = 31 - Math.clz32(candidates & -candidates);
        candidates &= candidates - 1;
        const part = of[at];
        if (end - start > part.length && (this.#holdsAt(start, part) || this.#holdsAt(end - part.length, part)))
          hold(index, at);
      }
    }
  }

  #holdsAt(from: number, part: string): boolean {
    const codes = this.#codes;
    for (let at = 0; at < part.length; at++) if (codes[from + at] !== part.charCodeAt(at)) return false;
    return true;
  }

  /** String order (UTF-16 code units, as `<`) of string `index` against `key`, without making it: negative, 0 or positive. */
  compareTo(index: number, key: string): number {
    const codes = this.#codes;
    const start = this.#starts[index];
    const length = this.#starts[index + 1] - start;
    const shorter = length < key.length ? length : key.length;
    for (let at = 0; at < shorter; at++) {
      const difference = codes[start + at] - key.charCodeAt(at);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }

  /** String order (UTF-16 code units, as `<`) of strings `a` and `b`, without making them: negative, 0 or positive. */
  compare(a: number, b: number): number {
    const codes = this.#codes;
    let at = this.#starts[a];
    const end = this.#starts[a + 1];
    let other = this.#starts[b];
    const otherEnd = this.#starts[b + 1];
    for (; at < end && other < otherEnd; at++, other++) {
      const difference = codes[at] - codes[other];
      if (difference !== 0) return difference;
    }
    return end - at - (otherEnd - other);
  }
}

/** A string's UTF-16 code units. */
function codeUnitsOf(characters: string): Uint16Array {
  const codes = new Uint16Array(characters.length);
  for (let at = 0; at < characters.length; at++) codes[at] = characters.charCodeAt(at);
  return codes;
}

/** Prefix sums of `lengths`: where each string starts, and the total last; null when they are not `total`. */
function startsOf(lengths: Int32Array, total: number): Int32Array | null {
  const starts = new Int32Array(lengths.length + 1);
  let at = 0;
  for (let index = 0; index < lengths.length; index++) {
    const length = lengths[index];
    if (length < 0) return null;
    starts[index] = at;
    at += length;
  }
  starts[lengths.length] = at;
  return at === total ? starts : null;
}

/**
 * Strings of a table by their numbers: entry `i` is string `numbers[i * stride]` (a column of a
 * file's rows of string numbers, or a list of them when the stride is 1). Every number must be a
 * string of the table (checked where the file is decoded).
 */
export class NumberedStrings implements StringList {
  readonly #table: PackedStrings;
  readonly #numbers: Int32Array;
  readonly #stride: number;
  readonly length: number;

  constructor(table: PackedStrings, numbers: Int32Array, stride = 1) {
    this.#table = table;
    this.#numbers = numbers;
    this.#stride = stride;
    this.length = Math.floor(numbers.length / stride);
  }

  at(index: number): string | undefined {
    if (index >>> 0 !== index || index >= this.length) return undefined;
    return this.#table.at(this.#numbers[index * this.#stride]);
  }

  compareTo(index: number, key: string): number {
    return this.#table.compareTo(this.#numbers[index * this.#stride], key);
  }

  /** PackedStrings.forEachEdgeHolder over entries `from <= index < to` of this list. */
  forEachEdgeHolder(from: number, to: number, parts: EdgeParts, hold: (index: number, at: number) => void): void {
    this.#table.forEachEdgeHolder(this.#numbers, this.#stride, from, to, parts, hold);
  }

  /**
   * The first rank at which the entries, read in `sorted` order (their own order when null), are
   * not strictly increasing, and whether it repeats the entry before it; null when they all are.
   * Positions must be valid (checked by the caller). One loop here, not a compare call per pair:
   * a fresh process checks a loaded index's 130,000 terms with it.
   */
  firstDisorder(sorted: Int32Array | null): { rank: number; repeated: boolean } | null {
    const table = this.#table;
    const numbers = this.#numbers;
    const stride = this.#stride;
    for (let rank = 1; rank < this.length; rank++) {
      const previous = sorted === null ? rank - 1 : sorted[rank - 1];
      const position = sorted === null ? rank : sorted[rank];
      const order = table.compare(numbers[previous * stride], numbers[position * stride]);
      if (order >= 0) return { rank, repeated: order === 0 };
    }
    return null;
  }
}

/** The list's strings in an array (a copy). */
export function stringsOf(list: StringList): string[] {
  if (Array.isArray(list)) return (list as readonly string[]).slice();
  const strings = new Array<string>(list.length);
  for (let index = 0; index < list.length; index++) strings[index] = list.at(index)!;
  return strings;
}

/**
 * A list that changes over a list that never does (a loaded file's, or none): entries past the base
 * are appended, entries of the base replaced are kept beside it, so a loaded index's 100,000 ids
 * are not copied at its first change and the base stays valid for the binary searches over it.
 */
export class StringColumn implements StringList {
  readonly #base: StringList;
  readonly #baseLength: number;
  #replaced: Map<number, string> | null = null;
  #added: string[] = [];

  constructor(base: StringList = []) {
    this.#base = base;
    this.#baseLength = base.length;
  }

  get length(): number {
    return this.#baseLength + this.#added.length;
  }

  at(index: number): string | undefined {
    if (index >= this.#baseLength) return this.#added[index - this.#baseLength];
    const replaced = this.#replaced?.get(index);
    return replaced !== undefined ? replaced : this.#base.at(index);
  }

  /** Sets entry `index`, an existing one or the next (`length`). */
  set(index: number, value: string): void {
    if (!(index >= 0 && index <= this.length)) throw new RangeError(`String column entry ${index} of ${this.length}.`);
    if (index >= this.#baseLength) this.#added[index - this.#baseLength] = value;
    else (this.#replaced ??= new Map()).set(index, value);
  }

  push(value: string): void {
    this.#added.push(value);
  }

  /**
   * Calls `hold(index, at)` for each entry from `from` on that is longer than `parts.of[at]` and
   * begins or ends with it, in index order: in place, in one pass for all the parts, over a loaded
   * base.
   */
  forEachEdgeHolder(from: number, parts: EdgeParts, hold: (index: number, at: number) => void): void {
    const base = this.#base;
    let next = from;
    if (next < this.#baseLength && base instanceof NumberedStrings) {
      const replaced = this.#replaced;
      // Replaced entries are tested from their strings, each reported before the base's next holder.
      const replacedIndexes = replaced === null ? [] : [...replaced.keys()].filter((index) => index >= from);
      replacedIndexes.sort((a, b) => a - b);
      let pending = 0;
      const replacedBefore = (end: number): void => {
        for (; pending < replacedIndexes.length && replacedIndexes[pending] < end; pending++) {
          const index = replacedIndexes[pending];
          parts.forEachHeldBy(replaced!.get(index)!, (at) => hold(index, at));
        }
      };
      base.forEachEdgeHolder(next, this.#baseLength, parts, (index, at) => {
        replacedBefore(index);
        if (replaced?.has(index) !== true) hold(index, at);
      });
      replacedBefore(this.#baseLength);
      next = this.#baseLength;
    }
    for (let index = next; index < this.length; index++) parts.forEachHeldBy(this.at(index)!, (at) => hold(index, at));
  }

  /** A copy that later changes to this column do not reach (the base is shared: it never changes). */
  copy(): StringColumn {
    const copy = new StringColumn(this.#base);
    copy.#replaced = this.#replaced === null ? null : new Map(this.#replaced);
    copy.#added = this.#added.slice();
    return copy;
  }
}

/**
 * Up to 31 words looked for at the edges of strings (forEachEdgeHolder), with what a scan needs to
 * rule a string out from its first and last code unit: bit `at` of `byFirst[c]` is set when part
 * `at` begins with code unit `c`, of `byLast[c]` when it ends with it.
 */
export class EdgeParts {
  static readonly MAX = 31;
  readonly of: readonly string[];
  readonly byFirst: Int32Array;
  readonly byLast: Int32Array;
  /** Length of the shortest part: no string of that length or shorter holds one. */
  readonly shortest: number;

  constructor(parts: readonly string[]) {
    if (parts.length === 0 || parts.length > EdgeParts.MAX || parts.some((part) => part.length === 0))
      throw new RangeError(`EdgeParts takes 1 to ${EdgeParts.MAX} non-empty words; got ${parts.length}.`);
    this.of = parts;
    const highest = (pick: (part: string) => number): number => Math.max(-1, ...parts.map(pick)) + 1;
    this.byFirst = new Int32Array(highest((part) => part.charCodeAt(0)));
    this.byLast = new Int32Array(highest((part) => part.charCodeAt(part.length - 1)));
    parts.forEach((part, at) => {
      this.byFirst[part.charCodeAt(0)] |= 1 << at;
      this.byLast[part.charCodeAt(part.length - 1)] |= 1 << at;
    });
    this.shortest = Math.min(...parts.map((part) => part.length));
  }

  /** Calls `hold(at)` for each part that `value` is longer than and begins or ends with. */
  forEachHeldBy(value: string, hold: (at: number) => void): void {
    this.of.forEach((part, at) => {
      if (value.length > part.length && (value.startsWith(part) || value.endsWith(part))) hold(at);
    });
  }
}
