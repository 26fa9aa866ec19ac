/**
 * The offline vocabulary bridge (no model, no network): a query becomes concepts, one per
 * informative word, each with the other ways a memory may say it. Word forms ("chose" for
 * "choose", "colour" for "color"), software abbreviations ("db" / "database", "PR" / "pull
 * request"), categories of well-known tools both ways ("database" / "PostgreSQL") and WordNet
 * synonyms. An alternative earns less than the word itself (its credit), and its search weight is
 * lower still, so the user's own words rank first.
 */
import type { WeightedTerm } from '../ports/memoryStore.ts';
import { termOf } from '../text/analyzer.ts';
import { tokenizeDetailed } from '../text/tokenizer.ts';
import { MAX_PHRASE_WORDS, softwareVocabulary, type PhraseEntry } from '../text/vocabulary/softwareVocabulary.ts';
import { isGenericWord, wordnetAttributes, wordnetSynonyms } from '../text/vocabulary/synonymTable.ts';
import { derivedForms, wordFormVariants } from '../text/vocabulary/wordForms.ts';

export type BridgeKind =
  'word form' | 'derived form' | 'abbreviation' | 'category' | 'member' | 'synonym' | 'attribute' | 'keyword';

export interface ConceptAlternative {
  /** Index terms that must all be in a memory for the alternative to count. */
  terms: string[];
  /** Share of the concept a memory covers through this alternative, 0..1. */
  credit: number;
  kind: BridgeKind;
  /** For why_matched: "database ← postgresql". */
  label: string;
}

export interface QueryConcept {
  term: string;
  /** Query weight of the word (identifier wholes count more than their parts). */
  weight: number;
  /** A generic word ("use", "make", "set"): a match on it alone says little (queryCoverage.ts). */
  generic: boolean;
  alternatives: ConceptAlternative[];
}

/**
 * How much of a concept each kind of bridge covers. A word form is the same word; an abbreviation
 * names the same thing; a tool named for its category ("database" -> PostgreSQL) is nearly always
 * what was meant, the category for a tool a little less; a dictionary synonym is looser, and an
 * attribute ("faster" for "speed", "weight" for "lighter") the loosest: it names the quantity asked
 * about, not the same thing (0.4 kept the coding set's gains and cost LoCoMo the least).
 */
export const BRIDGE_CREDIT: Record<BridgeKind, number> = {
  'word form': 0.9,
  'derived form': 0.75,
  abbreviation: 0.9,
  member: 0.75,
  category: 0.6,
  synonym: 0.6,
  attribute: 0.4,
  keyword: 0.8,
};
/** Search weight of an alternative relative to the query word's own, times its credit. */
export const EXPANSION_SEARCH_WEIGHT = 0.5;
/** Alternatives per concept: a category like "database" has dozens of members; the rest add cost, not recall. */
const MAX_ALTERNATIVES = 24;
const QUERY_KIND_WEIGHTS = { word: 1, whole: 1.5, part: 0.5 } as const;

/** Index terms of a phrase (stop words dropped), or null when nothing informative is left. */
function phraseTerms(words: readonly string[]): string[] | null {
  const terms = words
    .map((word) => termOf({ text: word, kind: 'word' }))
    .filter((term): term is string => term !== null);
  return terms.length > 0 ? terms : null;
}

let phrasesByTerms: Map<string, PhraseEntry> | null = null;

/** The software vocabulary keyed by its phrases' index terms, so "pull requests" finds "pull request". */
function vocabularyByTerms(): Map<string, PhraseEntry> {
  if (phrasesByTerms === null) {
    phrasesByTerms = new Map();
    for (const entry of softwareVocabulary().values()) {
      const terms = phraseTerms(entry.words);
      if (terms === null) continue;
      const key = terms.join(' ');
      const known = phrasesByTerms.get(key);
      phrasesByTerms.set(
        key,
        known ? { words: known.words, alternatives: [...known.alternatives, ...entry.alternatives] } : entry,
      );
    }
  }
  return phrasesByTerms;
}

interface QueryWord {
  term: string;
  surface: string;
  kind: 'word' | 'whole' | 'part';
}

/** Concepts of one query: its informative words in order, each with its alternatives. */
export function queryConcepts(text: string): QueryConcept[] {
  const words: QueryWord[] = [];
  for (const token of tokenizeDetailed(text)) {
    const term = termOf(token);
    if (term !== null) words.push({ term, surface: token.text, kind: token.kind });
  }
  const concepts = new Map<string, QueryConcept>();
  for (const word of words) {
    const concept = concepts.get(word.term) ?? { term: word.term, weight: 0, generic: true, alternatives: [] };
    concept.weight += QUERY_KIND_WEIGHTS[word.kind];
    // Generic only when every form of it in the query is ("chose" is "choose").
    concept.generic &&= word.kind !== 'whole' && [word.surface, ...wordFormVariants(word.surface)].some(isGenericWord);
    concepts.set(word.term, concept);
  }
  const add = (concept: QueryConcept, terms: string[] | null, kind: BridgeKind, label: string): void => {
    if (terms === null || (terms.length === 1 && terms[0] === concept.term)) return;
    const key = terms.join(' ');
    const existing = concept.alternatives.find((alternative) => alternative.terms.join(' ') === key);
    if (existing) {
      if (BRIDGE_CREDIT[kind] > existing.credit) Object.assign(existing, { credit: BRIDGE_CREDIT[kind], kind, label });
      return;
    }
    concept.alternatives.push({ terms, credit: BRIDGE_CREDIT[kind], kind, label });
  };

  for (const word of words) {
    if (word.kind === 'part') continue;
    const concept = concepts.get(word.term)!;
    for (const variant of wordFormVariants(word.surface))
      add(concept, phraseTerms([variant]), 'word form', `${word.surface} ← ${variant}`);
    // A generic word's synonyms and derived forms are generic too ("set": put, place, lay): they add
    // long postings to every search and little evidence, so only its inflections are kept.
    if (concept.generic) continue;
    for (const variant of derivedForms(word.surface))
      add(concept, phraseTerms([variant]), 'derived form', `${word.surface} ← ${variant}`);
    for (const base of [word.surface, ...wordFormVariants(word.surface)]) {
      for (const synonym of wordnetSynonyms(base))
        add(concept, phraseTerms([synonym]), 'synonym', `${word.surface} ← ${synonym}`);
    }
    // "lighter" -> light -> weight; "sped" -> speed -> fast, faster: an attribute and its comparative forms.
    for (const base of new Set([word.surface, ...wordFormVariants(word.surface), ...derivedForms(word.surface)])) {
      for (const attribute of wordnetAttributes(base)) {
        for (const form of [attribute, ...derivedForms(attribute)])
          add(concept, phraseTerms([form]), 'attribute', `${word.surface} ← ${form}`);
      }
    }
  }

  // Phrases of the software vocabulary, longest first, over the informative words in order.
  const sequence = words.filter((word) => word.kind !== 'part');
  const vocabulary = vocabularyByTerms();
  for (let start = 0; start < sequence.length; start++) {
    for (let length = Math.min(MAX_PHRASE_WORDS, sequence.length - start); length >= 1; length--) {
      const span = sequence.slice(start, start + length);
      const entry = vocabulary.get(span.map((word) => word.term).join(' '));
      if (!entry) continue;
      const phrase = span.map((word) => word.surface).join(' ');
      for (const alternative of entry.alternatives) {
        const terms = phraseTerms(alternative.words);
        for (const word of span)
          add(concepts.get(word.term)!, terms, alternative.kind, `${phrase} ← ${alternative.words.join(' ')}`);
      }
      break;
    }
  }
  for (const concept of concepts.values()) {
    // Strongest bridges first, so the cap drops the loosest.
    concept.alternatives.sort((a, b) => b.credit - a.credit);
    concept.alternatives.length = Math.min(concept.alternatives.length, MAX_ALTERNATIVES);
  }
  return [...concepts.values()];
}

/** The weighted terms one lexical search needs for these concepts: each word, then its alternatives at a lower weight. */
export function searchTermsOf(concepts: readonly QueryConcept[], scale = 1): WeightedTerm[] {
  const weights = new Map<string, number>();
  const raise = (term: string, weight: number): void => {
    if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
  };
  for (const concept of concepts) raise(concept.term, concept.weight * scale);
  for (const concept of concepts) {
    for (const alternative of concept.alternatives) {
      const weight = (concept.weight * scale * alternative.credit * EXPANSION_SEARCH_WEIGHT) / alternative.terms.length;
      for (const term of alternative.terms) raise(term, weight);
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
