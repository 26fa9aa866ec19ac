/**
 * The terms of a lexical index that hold a query word as their start or end
 * (core/text/wordParts.ts), for the documents of a loaded index that are not in the arena yet
 * (their terms are read from the postings of these words). Found by reading the term names once
 * per part and kept: an index only appends to its term names, so a later call reads only the
 * names added since. At most MAX_PARTS parts are kept (cleared when full), a bound on memory.
 */
import { isPlainWord, MIN_PART_LETTERS } from '../../core/text/wordParts.ts';
import type { StringColumn } from './stringList.ts';

const MAX_PARTS = 1024;

interface Holders {
  ids: number[];
  /** Term names read so far. */
  read: number;
}

export class WordPartIndex {
  readonly #byPart = new Map<string, Holders>();

  /** Term ids (positions in `termNames`) of the longer plain words that begin or end with `part`. */
  termsHolding(part: string, termNames: StringColumn): readonly number[] {
    if (part.length < MIN_PART_LETTERS) return [];
    let holders = this.#byPart.get(part);
    if (holders === undefined) {
      if (this.#byPart.size >= MAX_PARTS) this.#byPart.clear();
      holders = { ids: [], read: 0 };
      this.#byPart.set(part, holders);
    }
    // The edges are tested in place (a loaded index's names are not made as strings); the plain-word
    // test (isWordPart's last) only for the few names that hold the part.
    for (let id = holders.read; id < termNames.length; id++)
      if (termNames.holdsAtEdge(id, part) && isPlainWord(termNames.at(id)!)) holders.ids.push(id);
    holders.read = termNames.length;
    return holders.ids;
  }
}
