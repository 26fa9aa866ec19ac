/**
 * Which longer words of a memory hold a query word as their start or end ("cach" in "memcach",
 * "limit" in "ulimit", "time" in "timestamp"): the test both stores apply to the words of a
 * lexical hit when recall asks for parts (core/retrieval/wordParts.ts says why and how it counts).
 */

/**
 * Shortest query word looked for inside longer words, as its index term (stem): three letters are
 * inside too many words by chance ("log" in "catalog", "art" in "start"). Coding sets: at 3 the
 * near-miss questions got more answers (0.07 -> 0.13 results on average); at 5 "cach" (cached)
 * and "time" are no longer looked for, and the first set keeps one of its three gains.
 */
export const MIN_PART_LETTERS = 4;

const PLAIN_WORD = /^\p{L}+$/u;

/** A word of letters only: identifiers' pieces, versions and numbers are not compounds of words. */
export function isPlainWord(term: string): boolean {
  return PLAIN_WORD.test(term);
}

/** Whether `term` (an index term) is a longer plain word that begins or ends with `part`. */
export function isWordPart(part: string, term: string): boolean {
  return term.length > part.length && (term.startsWith(part) || term.endsWith(part)) && isPlainWord(term);
}

/** The parts a store looks for: plain words of at least MIN_PART_LETTERS letters, whatever it was asked. */
export function partsToLookFor(parts: readonly string[]): string[] {
  return parts.filter((part) => part.length >= MIN_PART_LETTERS && isPlainWord(part));
}
