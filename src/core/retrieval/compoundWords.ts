/**
 * Compounds written together or apart: "road trip" / "roadtrip", "dev tools" / "devtools",
 * "set up" / "setup". Identifiers already split at their case and connectors (tokenizer.ts); a
 * lower-case compound has no mark of its parts, so a question and a memory that write it
 * differently share no term. Both directions are read on the query side, against what the
 * user's memories say, so nothing is re-indexed and no word list is needed:
 *
 * - **joined**: two adjacent query words are also searched as one word. Only a memory that writes
 *   the compound has that term, so the store's vocabulary decides whether the join means anything.
 * - **split**: a query word no memory has is also searched as each two-part split whose parts are
 *   informative, non-generic words; a memory that has both parts covers the word. The split counts only when no
 *   memory has the word itself (`unknownWordSplitsOnly`): "database" is never data + base in a
 *   store that says "database".
 */
import type { TermStatistics } from '../ports/memoryStore.ts';
import { stemUncached } from '../text/stemmer.ts';
import { isStopWord } from '../text/stopwords.ts';
import type { Token } from '../text/tokenizer.ts';
import type { SharedQueryConcept } from './queryConcepts.ts';

/**
 * A joined compound is the same word written another way (word-form credit); a split is weaker:
 * the memory has both parts, not necessarily together.
 */
export const JOINED_CREDIT = 0.9;
export const SPLIT_CREDIT = 0.75;
/** Shortest part of a split: shorter parts ("do" + "nate") are mostly chance. */
const MIN_SPLIT_PART = 3;
const LETTERS = /^\p{L}+$/u;

export interface CompoundBridge {
  /** The concept term the bridge belongs to. */
  concept: string;
  /** Read, never changed: a split's bridges are shared by every query with its word (wordSplits). */
  terms: readonly string[];
  credit: number;
  kind: 'joined' | 'split';
  label: string;
  /** The terms joined by spaces (queryConcepts tells a concept's alternatives apart by it). */
  key: string;
}

/**
 * Each pair of adjacent plain words (a particle after its verb included: "set up" -> "setup"),
 * joined, as a bridge of each informative word of the pair. A join that is itself a stop word
 * ("with out") is no compound.
 */
function joinedBridges(tokens: readonly Token[], terms: ReadonlyArray<string | null>): CompoundBridge[] {
  const bridges: CompoundBridge[] = [];
  for (let index = 0; index + 1 < tokens.length; index++) {
    const [first, second] = [tokens[index], tokens[index + 1]];
    if (first.kind !== 'word' || second.kind !== 'word') continue;
    if (!LETTERS.test(first.text) || !LETTERS.test(second.text)) continue;
    // A particle follows its verb ("set up", "log in"); a function word before a word ("the dev") joins nothing.
    if (isStopWord(first.text.toLowerCase())) continue;
    const joinedText = `${first.text}${second.text}`.toLowerCase();
    // termOf of the joined word, its stem not kept: a query's pairs are mostly new (bench:load: the
    // stems' cache lookup and insertion of each fresh join were a sixth of expansion's CPU), and
    // kept, they would push the words a store keeps meeting out of that cache.
    const joined = isStopWord(joinedText) ? null : stemUncached(joinedText);
    if (joined === null) continue;
    for (let at = index; at <= index + 1; at++) {
      // termOf of a plain word: null for a stop word, else its stem.
      const concept = terms[at];
      if (concept === null || concept === joined) continue;
      bridges.push({
        concept,
        terms: [joined],
        key: joined,
        credit: JOINED_CREDIT,
        kind: 'joined',
        label: `${first.text} ${second.text} ← ${joinedText}`,
      });
    }
  }
  return bridges;
}

/**
 * Every split of a plain word into two informative, non-generic words of at least MIN_SPLIT_PART
 * letters: wordSplits' own bridges, not copies (the caller copies the terms of those it keeps).
 */
function splitBridges(
  tokens: readonly Token[],
  terms: ReadonlyArray<string | null>,
  isGeneric: GenericTest,
  into: Array<Readonly<CompoundBridge>>,
): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind !== 'word') continue;
    const splits = wordSplits(token.text, terms[index], isGeneric);
    for (let index = 0; index < splits.length; index++) into.push(splits[index]);
  }
}

/**
 * Splits already worked out, by word as written: a word of n letters tries n - 5 splits, each
 * stemming and testing both parts, and agents repeat their words. Cleared when full (a bound on
 * memory, as the word bridges' cache in queryConcepts.ts) or when asked with another generic test.
 */
const splitsByWord = new Map<string, readonly CompoundBridge[]>();
const MAX_CACHED_WORDS = 4096;
let splitsGenericTest: GenericTest | null = null;

/**
 * The split bridges of one word token's text, shared by every caller: read, never changed. `term`
 * is the token's termOf, which the caller has: asking the stems' cache again cost each new word a lookup.
 */
function wordSplits(surface: string, term: string | null, isGeneric: GenericTest): readonly CompoundBridge[] {
  if (splitsGenericTest !== isGeneric) {
    splitsByWord.clear();
    splitsGenericTest = isGeneric;
  }
  const cached = splitsByWord.get(surface);
  if (cached !== undefined) return cached;
  const bridges: CompoundBridge[] = [];
  const text = surface.toLowerCase();
  const concept = LETTERS.test(text) && text.length >= 2 * MIN_SPLIT_PART ? term : null;
  if (concept !== null) {
    for (let at = MIN_SPLIT_PART; at <= text.length - MIN_SPLIT_PART; at++) {
      const head = text.slice(0, at);
      const tail = text.slice(at);
      if (isStopWord(head) || isStopWord(tail)) continue;
      // termOf of a word that is no stop word is its stem: asked directly, no token object per part,
      // and not cached: the parts of a word's splits seldom recur (its splits are cached whole), and
      // they would push the words a store keeps meeting out of the stems' cache.
      const headTerm = stemUncached(head);
      const tailTerm = stemUncached(tail);
      if (headTerm === tailTerm) continue;
      // A generic part in any form ("part" + "take", "screen" + "plays") is in memories about anything.
      if (isGeneric(head, headTerm) || isGeneric(tail, tailTerm)) continue;
      bridges.push({
        concept,
        terms: [headTerm, tailTerm],
        key: `${headTerm} ${tailTerm}`,
        credit: SPLIT_CREDIT,
        kind: 'split',
        label: `${surface} ← ${head} ${tail}`,
      });
    }
  }
  if (splitsByWord.size >= MAX_CACHED_WORDS) splitsByWord.clear();
  splitsByWord.set(surface, bridges);
  return bridges;
}

/** Whether a word (and its index term) is a generic word in any form: queryConcepts' test. */
export type GenericTest = (surface: string, term: string) => boolean;

/**
 * The compound bridges of a query's tokens (tokenizeDetailed), by the concept term each belongs to;
 * `terms` holds each token's termOf, in the same order.
 */
export function compoundBridges(
  tokens: readonly Token[],
  terms: ReadonlyArray<string | null>,
  isGeneric: GenericTest,
): ReadonlyArray<Readonly<CompoundBridge>> {
  const bridges: Array<Readonly<CompoundBridge>> = joinedBridges(tokens, terms);
  splitBridges(tokens, terms, isGeneric, bridges);
  return bridges;
}

/**
 * The concepts with their split alternatives dropped where some memory has the word itself: a
 * store that says "database" means the word, not "data" and "base" wherever both occur.
 */
export function unknownWordSplitsOnly(
  concepts: readonly SharedQueryConcept[],
  stats: TermStatistics,
): SharedQueryConcept[] {
  return concepts.map((concept) => {
    if (!concept.alternatives.some((item) => item.kind === 'split')) return concept;
    // Kept, the splits take their place by credit: the coverage reads the first alternative a memory has.
    const alternatives =
      (stats.frequencies.get(concept.term) ?? 0) > 0
        ? concept.alternatives.filter((item) => item.kind !== 'split')
        : [...concept.alternatives].sort((a, b) => b.credit - a.credit);
    return { ...concept, alternatives };
  });
}
