/**
 * The terms of a lexical index that can hold a query word as their start or end
 * (core/text/wordParts.ts), found without reading every term: each plain word longer than the
 * shortest part is filed under its first two and its last two letters, so a part is compared with
 * the terms that share its first (or last) two letters only, about 1 in 300 of them. Filed lazily
 * and incrementally: a lexical index only appends to its term names, so each call files the terms
 * added since the last one (at 100,000 memories the first call files about 100,000 terms once).
 */
import { isPlainWord, isWordPart, MIN_PART_LETTERS } from '../../core/text/wordParts.ts';

const EDGE = 2;

export class WordPartIndex {
  readonly #heads = new Map<string, number[]>();
  readonly #tails = new Map<string, number[]>();
  #filed = 0;

  /** Term ids (positions in `termNames`) of the longer plain words that begin or end with `part`. */
  termsHolding(part: string, termNames: readonly string[]): number[] {
    this.#file(termNames);
    const found: number[] = [];
    if (part.length < MIN_PART_LETTERS) return found;
    for (const id of this.#heads.get(part.slice(0, EDGE)) ?? [])
      if (termNames[id].startsWith(part) && isWordPart(part, termNames[id])) found.push(id);
    for (const id of this.#tails.get(part.slice(-EDGE)) ?? [])
      // A term that also begins with the part was found above.
      if (termNames[id].endsWith(part) && !termNames[id].startsWith(part) && isWordPart(part, termNames[id]))
        found.push(id);
    return found;
  }

  #file(termNames: readonly string[]): void {
    for (let id = this.#filed; id < termNames.length; id++) {
      const name = termNames[id];
      if (name.length <= MIN_PART_LETTERS || !isPlainWord(name)) continue;
      fileUnder(this.#heads, name.slice(0, EDGE), id);
      fileUnder(this.#tails, name.slice(-EDGE), id);
    }
    this.#filed = termNames.length;
  }
}

function fileUnder(buckets: Map<string, number[]>, key: string, id: number): void {
  const bucket = buckets.get(key);
  if (bucket === undefined) buckets.set(key, [id]);
  else bucket.push(id);
}
