/**
 * A generated "word:value,value" table looked up where it lies in the module's string, by binary
 * search over its lines: nothing is parsed when the module loads or at the first query. Parsing
 * the WordNet tables into Maps cost the first recall of every process about 50 ms of CPU and the
 * heap a Map of arrays for each of 6,000 words, of which a query reads a handful.
 *
 * The generator (scripts/build-wordnet-synonyms.mjs) writes every table with one line per word,
 * words of lowercase letters a-z only, in ascending order, so code-unit comparison is the table's
 * own order.
 */
export class SortedLineTable {
  readonly #text: string;
  readonly #indexAfter: number;
  #lookups = 0;
  /**
   * Where each line starts, found once the table has answered `indexAfter` lookups (one scan of the
   * text, about 0.25 ms for the largest table, more before the scan is compiled): the search then
   * lands on line starts directly, where finding the line around a midpoint scans back and forth
   * over it at every step, its values included (0.8 against 0.5 µs a lookup). Not at the first
   * lookup: a fresh process's first recall makes a few dozen and would pay the scans for nothing.
   */
  #lineStarts: Int32Array | null = null;

  constructor(text: string, options: { indexAfter?: number } = {}) {
    this.#text = text;
    this.#indexAfter = options.indexAfter ?? INDEX_AFTER_LOOKUPS;
  }

  /** The values of `word`'s line, in the table's order; empty when the table has no line for it. */
  get(word: string): string[] {
    if (this.#lineStarts === null) {
      if (this.#lookups < this.#indexAfter) {
        this.#lookups++;
        return this.#scanningGet(word);
      }
      this.#lineStarts = lineStartsOf(this.#text);
    }
    const text = this.#text;
    const starts = this.#lineStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = starts[middle];
      const order = compareKeyAt(text, start, word);
      if (order === 0) {
        const end = middle + 1 < starts.length ? starts[middle + 1] - 1 : text.length;
        return text.slice(start + word.length + 1, end).split(',');
      }
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return [];
  }

  /** The search before the index: over characters, finding the line around each midpoint. */
  #scanningGet(word: string): string[] {
    const text = this.#text;
    let low = 0;
    let high = text.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      // The line holding `middle`: from just after the previous newline to the next one.
      const start = middle === 0 ? 0 : text.lastIndexOf('\n', middle - 1) + 1;
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const colon = text.indexOf(':', start);
      // Compared where it lies: a lookup visits a dozen lines, and slicing each key out cost more than the search.
      const order = compareKey(text, start, colon, word);
      if (order === 0) return text.slice(colon + 1, end).split(',');
      if (order < 0) low = end + 1;
      else high = start;
    }
    return [];
  }
}

/** Lookups a table answers by scanning before it indexes its lines. */
const INDEX_AFTER_LOOKUPS = 256;

/** The offset of every line's first character. */
function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts[line++] = at + 1;
  return starts;
}

/**
 * The key of the line at `start` (up to its colon) against `word` in code-unit order, as `<`
 * compares strings: negative, 0 or positive.
 */
function compareKeyAt(text: string, start: number, word: string): number {
  for (let index = 0; index < word.length; index++) {
    const code = text.charCodeAt(start + index);
    // The key ended first (at its colon, or the text's end in a line without one): it is a prefix of the word, so it sorts before it.
    if (code === COLON || Number.isNaN(code)) return -1;
    const difference = code - word.charCodeAt(index);
    if (difference !== 0) return difference;
  }
  // The word ended: equal when the key ends here too, else the key is longer and sorts after it.
  return text.charCodeAt(start + word.length) === COLON ? 0 : 1;
}

const COLON = 58;

/** `text.slice(start, end)` against `word` in code-unit order, as `<` compares strings: negative, 0 or positive. */
function compareKey(text: string, start: number, end: number, word: string): number {
  const length = Math.min(end - start, word.length);
  for (let index = 0; index < length; index++) {
    const difference = text.charCodeAt(start + index) - word.charCodeAt(index);
    if (difference !== 0) return difference;
  }
  return end - start - word.length;
}
