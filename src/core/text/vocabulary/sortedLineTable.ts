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

  constructor(text: string) {
    this.#text = text;
  }

  /** The values of `word`'s line, in the table's order; empty when the table has no line for it. */
  get(word: string): string[] {
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

/** `text.slice(start, end)` against `word` in code-unit order, as `<` compares strings: negative, 0 or positive. */
function compareKey(text: string, start: number, end: number, word: string): number {
  const length = Math.min(end - start, word.length);
  for (let index = 0; index < length; index++) {
    const difference = text.charCodeAt(start + index) - word.charCodeAt(index);
    if (difference !== 0) return difference;
  }
  return end - start - word.length;
}
