/**
 * The terms of a lexical index that hold a query word as their start or end
 * (core/text/wordParts.ts), for the documents of a loaded index that are not in the arena yet
 * (their terms are read from the postings of these words). Found by reading the term names once
 * for the parts of a call and kept per part: an index only appends to its term names, so a later
 * call reads only the names added since. At most MAX_PARTS parts are kept (cleared when full), a
 * bound on memory.
 */
import { isPlainWord, MIN_PART_LETTERS } from '../../core/text/wordParts.ts';
import { EdgeParts, type StringColumn } from './stringList.ts';

const MAX_PARTS = 1024;
const NONE: readonly number[] = [];

interface Holders {
  ids: number[];
  /** Term names read so far. */
  read: number;
}

export class WordPartIndex {
  readonly #byPart = new Map<string, Holders>();

  /**
   * For each part, the term ids (positions in `termNames`, ascending) of the longer plain words that
   * begin or end with it. The names not read yet for any of the parts are read in one pass for all
   * of them (EdgeParts): a recall asks for a part per new query word, and a pass for each read the
   * 130,000 names of an index at 100,000 memories once per word.
   */
  termsHoldingEach(parts: readonly string[], termNames: StringColumn): (readonly number[])[] {
    const holders = parts.map((part) => (part.length < MIN_PART_LETTERS ? null : this.#holdersOf(part)));
    const pending = [...new Set(holders)].filter(
      (entry): entry is Holders => entry !== null && entry.read < termNames.length,
    );
    for (let first = 0; first < pending.length; first += EdgeParts.MAX) {
      const batch = pending.slice(first, first + EdgeParts.MAX);
      const words = batch.map((entry) => parts[holders.indexOf(entry)]);
      const from = Math.min(...batch.map((entry) => entry.read));
      // The plain-word test (isWordPart's last) only for the few names that hold a part.
      termNames.forEachEdgeHolder(from, new EdgeParts(words), (id, at) => {
        if (id >= batch[at].read && isPlainWord(termNames.at(id)!)) batch[at].ids.push(id);
      });
      for (const entry of batch) entry.read = termNames.length;
    }
    return holders.map((entry) => entry?.ids ?? NONE);
  }

  #holdersOf(part: string): Holders {
    let holders = this.#byPart.get(part);
    if (holders === undefined) {
      if (this.#byPart.size >= MAX_PARTS) this.#byPart.clear();
      holders = { ids: [], read: 0 };
      this.#byPart.set(part, holders);
    }
    return holders;
  }
}
