/**
 * A query word written as a part of a longer word in a memory: "cached" in "Memcached", "limit" in
 * "ulimit", "time" in "timestamps", "hook" in "webhook". Coding text writes compounds together,
 * with a prefix or a tool's name (mem-, u-, web-, sub-), and a question names the plain word; the
 * two share no index term, so a memory could cover only the question's other words. The compounds
 * of compoundWords.ts are read on the query side (a query word joined or split); this is the
 * memory side, read from the words the store has (no word list): the store reports, for each
 * lexical hit, which of the query's words begin or end one of its longer words
 * (`LexicalQuery.parts`, the test in core/text/wordParts.ts).
 *
 * A part is a guess about meaning, as a derivation is ("port" in "import" is no port), so it covers
 * its concept at a synonym's credit, and it only adds to what a memory's own words found: a memory
 * that has nothing but the part is not a candidate. Generic words ("make", "take") are not looked
 * for: in any form they are in memories about anything.
 */
import type { PartMatch } from '../ports/memoryStore.ts';
import { isPlainWord, MIN_PART_LETTERS } from '../text/wordParts.ts';
import type { SharedQueryConcept } from './queryConcepts.ts';

/**
 * Share of its concept a part covers: a synonym's (BRIDGE_CREDIT.synonym). Both coding sets give
 * the same recall from 0.5 to 0.9; at 0.9 two more questions asked of the other coding set's
 * store get an answer (bench/coding/crossSetNegatives.ts), at 0.6 none on that store.
 */
export const PART_CREDIT = 0.6;

interface WordPartSettings {
  on: boolean;
  minLetters: number;
  credit: number;
}

const PRODUCT: WordPartSettings = { on: true, minLetters: MIN_PART_LETTERS, credit: PART_CREDIT };
let settings: WordPartSettings = PRODUCT;

/**
 * For held-out checks only (bench/coding/projectHoldout.ts): turns the rule off and on, or tries
 * another shortest part (at least MIN_PART_LETTERS: the stores look for no shorter one) or credit,
 * so a check can measure it. No argument restores the product's. Nothing in the product calls it.
 */
export function wordPartsForEvaluation(changed: Partial<WordPartSettings> = PRODUCT): void {
  settings = { ...PRODUCT, ...changed };
}

/** What a word part covers of its concept (PART_CREDIT outside held-out checks). */
export function partCredit(): number {
  return settings.credit;
}

/** Index terms of the query words a store looks for inside its longer words (LexicalQuery.parts). */
export function partSearchTerms(variants: readonly (readonly SharedQueryConcept[])[]): string[] {
  const parts = new Set<string>();
  if (!settings.on) return [];
  const shortest = Math.max(MIN_PART_LETTERS, settings.minLetters);
  for (const concepts of variants)
    for (const concept of concepts)
      if (!concept.generic && concept.topical && concept.term.length >= shortest && isPlainWord(concept.term))
        parts.add(concept.term);
  return [...parts];
}

const NO_PARTS: ReadonlyMap<string, string> = new Map();

/** A hit's part matches by part: the first longer word that holds each. */
export function partsOf(matches: readonly PartMatch[] | undefined): ReadonlyMap<string, string> {
  // Most hits hold no part match: they share one empty map, read-only by its type.
  if (matches === undefined || matches.length === 0) return NO_PARTS;
  const byPart = new Map<string, string>();
  for (const match of matches) if (!byPart.has(match.part)) byPart.set(match.part, match.term);
  return byPart;
}
