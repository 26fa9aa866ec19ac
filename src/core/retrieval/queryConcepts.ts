/**
 * The offline vocabulary bridge (no model, no network): a query becomes concepts, one per
 * informative word, each with the other ways a memory may say it. Word forms ("chose" for
 * "choose", "colour" for "color"), software abbreviations ("db" / "database", "PR" / "pull
 * request"), categories of well-known tools both ways ("database" / "PostgreSQL") and WordNet
 * synonyms. An alternative earns less than the word itself (its credit), and its search weight is
 * lower still, so the user's own words rank first.
 */
import type { WeightedTerm } from '../ports/memoryStore.ts';
import { termOf, weightedTerms } from '../text/analyzer.ts';
import { stemUncached } from '../text/stemmer.ts';
import { isStopWord } from '../text/stopwords.ts';
import { tokenizeDetailed, type Token } from '../text/tokenizer.ts';
import {
  isProductVocabulary,
  MAX_PHRASE_WORDS,
  softwareVocabulary,
  vocabularyGeneration,
} from '../text/vocabulary/softwareVocabulary.ts';
import {
  genericWords,
  isFalseDerivedForm,
  isGenericWord,
  wordnetAttributes,
  wordnetDerivations,
  wordnetSynonyms,
} from '../text/vocabulary/synonymTable.ts';
import { describedSoftwareEnabled, softwareDescribedAs } from '../text/vocabulary/describedSoftware.ts';
import {
  endsLanguageClass,
  languageClassesEnabled,
  languageClassMembers,
  MAX_CLASS_WORDS,
} from '../text/vocabulary/languageClassMembers.ts';
import {
  derivedForms,
  isInflectionOf,
  regularLemmas,
  wordFormVariants,
  wordsWithVariantIn,
} from '../text/vocabulary/wordForms.ts';
import { compoundBridges, JOINED_CREDIT, SPLIT_CREDIT } from './compoundWords.ts';
import { GENERIC_WORD_INFORMATION } from './queryCoverage.ts';
import {
  buildVocabularyIndex,
  isParticlePhrase,
  particleKey,
  phraseTerms,
  productVocabularyIndex,
  tableTerm,
  type VocabularyIndex,
  vocabularyTerms,
} from './vocabularyIndex.ts';

export type BridgeKind =
  | 'word form'
  | 'derived form'
  | 'derivation'
  | 'abbreviation'
  | 'category'
  | 'member'
  | 'equivalent'
  | 'synonym'
  | 'attribute'
  | 'keyword'
  | 'described'
  | 'instance'
  | 'joined'
  | 'split';

export interface ConceptAlternative {
  /** Index terms that must all be in a memory for the alternative to count. */
  terms: string[];
  /** Share of the concept a memory covers through this alternative, 0..1. */
  credit: number;
  kind: BridgeKind;
  /** For why_matched: "database ← postgresql". */
  label: string;
  /**
   * A class's members (kind 'instance'): the alternative counts when a memory has any one of
   * `terms`, each a member's index term, mapped here to the member's name for why_matched. One
   * alternative for hundreds of names: a memory's few terms are looked up in the class, not the
   * class's names in each memory (queryCoverage.ts, alternativeMatch).
   */
  members?: ReadonlyMap<string, string>;
}

export interface QueryConcept {
  term: string;
  /** Query weight of the word (identifier wholes count more than their parts). */
  weight: number;
  /** A generic word ("use", "make", "set"): a match on it alone says little (queryCoverage.ts). */
  generic: boolean;
  /**
   * What the query is about, not how it is phrased: false for a generic word in any form,
   * "happened" and "decided" included, which `generic` (measured as it is) leaves out. A question
   * without one topical concept ("what happened last week?") asks only for its time (timeWindow.ts).
   */
  topical: boolean;
  alternatives: ConceptAlternative[];
}

/**
 * How much of a concept each kind of bridge covers. A word form is the same word; an abbreviation
 * names the same thing; a tool named for its category ("database" -> PostgreSQL) is nearly always
 * what was meant, the category for a tool a little less; a dictionary synonym is looser, and an
 * attribute ("faster" for "speed", "weight" for "lighter") the loosest: it names the quantity asked
 * about, not the same thing (0.4 kept the coding set's gains and cost LoCoMo the least). Words
 * that mean the same in software work ("outage" / "incident") sit between a category and an
 * abbreviation: the same thing, said the way another team says it.
 */
export const BRIDGE_CREDIT: Record<BridgeKind, number> = {
  'word form': 0.9,
  'derived form': 0.75,
  // WordNet's derivations hold for one meaning of each word, and the table has no meanings: "store"
  // -> storage is right for a warehouse and wrong for the App Store. Synonym credit (coding set: at
  // 0.75 a question about "the store" lost its answer to a memory about storage).
  derivation: 0.6,
  abbreviation: 0.9,
  member: 0.75,
  category: 0.6,
  equivalent: 0.7,
  synonym: 0.6,
  attribute: 0.4,
  keyword: 0.8,
  // Software whose Debian description has the query word ("migration" -> alembic): a category's member,
  // as the packagers worded it. Generated links are looser than a written category (member, 0.75) and
  // than a dictionary synonym, so a word's own synonyms keep their places under the cap.
  described: 0.5,
  // A language for the class the question names ("language" -> kotlin), from Linguist's types: a
  // generated category's member, as loose as Debian's described software.
  instance: 0.5,
  joined: JOINED_CREDIT,
  split: SPLIT_CREDIT,
};
/** Search weight of an alternative relative to the query word's own, times its credit. */
export const EXPANSION_SEARCH_WEIGHT = 0.5;
/** Alternatives per concept: a category like "database" has dozens of members; the rest add cost, not recall. */
const MAX_ALTERNATIVES = 24;
const QUERY_KIND_WEIGHTS = { word: 1, whole: 1.5, part: 0.5 } as const;

/** phraseTerms of one word, without the lists a phrase needs: a new query word asks it for each of its forms. */
function wordTerms(word: string): string[] | null {
  const term = termOf({ text: word, kind: 'word' });
  return term === null ? null : [term];
}

/**
 * wordTerms of a form made by rule ("-er", "-est": "takermoer"), its stem not kept: a new word's
 * forms are new too, seldom asked again (its bridges are kept whole), and looking each up in the
 * stems' cache and adding it cost more than stemming it (bench/expansionNewWords.ts).
 */
function formTerms(form: string): string[] | null {
  return isStopWord(form) ? null : [stemUncached(form)];
}

let vocabularyIndex: VocabularyIndex | null = null;
let vocabularyIndexGeneration = -1;

/** A query span names a vocabulary phrase: the same informative words, each up to an inflection. */
function sameWords(surfaces: readonly string[], words: readonly string[]): boolean {
  const informative = words.filter((word) => !isStopWord(word));
  return informative.length === surfaces.length && informative.every((word, i) => isInflectionOf(surfaces[i], word));
}

function vocabulary(): VocabularyIndex {
  // Rebuilt when the vocabulary is (an evaluation that restricts it); the product's own is read
  // from the table generated at build time (vocabularyIndexTable.ts), not built at a first query.
  const generation = vocabularyGeneration();
  if (vocabularyIndex === null || vocabularyIndexGeneration !== generation) {
    vocabularyIndexGeneration = generation;
    vocabularyIndex = isProductVocabulary() ? productVocabularyIndex() : buildVocabularyIndex(softwareVocabulary());
  }
  return vocabularyIndex;
}

let genericByTerm: Map<string, string[]> | null = null;

/**
 * A generic word in any form: irregular ("made"), or a regular inflection of it ("happened",
 * "decided", "running"), but not a word the stemmer merely joins to one ("settings" is not "set").
 */
function isGenericForm(surface: string, term: string): boolean {
  return isGenericAsWritten(surface) || isGenericInflection(surface, term);
}

/** isGenericForm's second half: a regular inflection of a generic word ("happened", "decided"). */
function isGenericInflection(surface: string, term: string): boolean {
  if (genericByTerm === null) {
    genericByTerm = new Map();
    for (const word of genericWords()) {
      const stemmed = tableTerm(word);
      if (stemmed !== null) genericByTerm.set(stemmed, [...(genericByTerm.get(stemmed) ?? []), word]);
    }
  }
  const lemmas = genericByTerm.get(term);
  return lemmas !== undefined && lemmas.some((lemma) => isInflectionOf(surface, lemma));
}

let genericVariants: Set<string> | null = null;
let genericTestsAsked = 0;
/** Generic tests answered from each word's variants before the set of words with a generic variant is made. */
const GENERIC_SET_AFTER = 2000;

/**
 * The word, or one of its irregular forms or spellings, is a generic word ("chose" is "choose").
 * The words with a generic variant are worked out once (wordsWithVariantIn): every split part of
 * a word never seen before is asked, and working out its variants (every spelling rule, a set, a
 * cache entry) was the largest part of a new word's cost.
 */
function isGenericAsWritten(surface: string): boolean {
  if (isGenericWord(surface)) return true;
  if (genericVariants === null) {
    // Not at a fresh process's first queries: the set costs 4–10 ms to work out there, a word's
    // own variants a few µs. Both answer alike (test/core/text/vocabularyVariantsBackwards.test.ts).
    if (genericTestsAsked++ < GENERIC_SET_AFTER) {
      for (const variant of wordFormVariants(surface)) if (isGenericWord(variant)) return true;
      return false;
    }
    genericVariants = wordsWithVariantIn(new Set(genericWords()));
  }
  return genericVariants.has(surface);
}

/** derivedForms without the pairs that only look alike ("career" is no comparative of "care"). */
function comparativeOrAgentForms(word: string): string[] {
  return derivedForms(word).filter((form) => !isFalseDerivedForm(word, form));
}

/** One bridge of a query word, before it joins its concept (queryConcepts merges repeats). */
interface WordBridge {
  /** Read, never changed: shared by every query with the word, and by the concepts it joins. */
  terms: readonly string[];
  kind: BridgeKind;
  label: string;
  credit: number;
  /** The terms joined by spaces: how the concept tells its alternatives apart, made once per word. */
  key: string;
}

/**
 * Bridges of query words already expanded, by word: a recall expands its query twice (with and
 * without its time phrases) and agents repeat their words, while each expansion runs the word
 * through every table and rule. Cleared when full: a bound on memory, not an eviction policy.
 */
const bridgesByWord = {
  generic: new Map<string, WordEntry>(),
  topical: new Map<string, WordEntry>(),
};

/** What is kept of a query word: its bridges, and what they come to as its concept's first alternatives. */
interface WordEntry {
  bridges: readonly WordBridge[];
  /** Worked out at the word's first use as a concept's first word (ownAlternatives); null before. */
  own: OwnAlternatives | null;
  /** The vocabulary's phrases the word names alone, as bridges (phraseBridges); null before it is asked. */
  phrase: { key: string; bridges: readonly WordBridge[] } | null;
}

/**
 * The bridges of the software vocabulary's phrases a word names on its own, as expandQuery adds
 * them for a span of one word, with `key` its vocabulary key: worked out once per kept word, where
 * each query with "database" matched, filtered and labelled every one of its members again.
 */
function phraseBridges(
  entry: WordEntry,
  surface: string,
  key: string,
  byTerms: VocabularyIndex['byTerms'],
): readonly WordBridge[] {
  if (entry.phrase !== null && entry.phrase.key === key) return entry.phrase.bridges;
  const bridges: WordBridge[] = [];
  const named = byTerms.get(key);
  if (named !== undefined) {
    const surfaces = [surface.toLowerCase()];
    for (const phrase of named) {
      if (!sameWords(surfaces, phrase.words)) continue;
      for (const alternative of phrase.alternatives)
        for (const terms of alternative.termLists)
          bridges.push({
            terms,
            kind: alternative.kind,
            label: `${surface} ← ${alternative.text}`,
            credit: BRIDGE_CREDIT[alternative.kind],
            key: terms.join(' '),
          });
    }
  }
  entry.phrase = { key, bridges };
  return bridges;
}

/**
 * A word's bridges as the alternatives of a concept it is the first word of: add's rules (no bridge
 * naming the concept's own term; one alternative a key, at its first place, with the first of the
 * highest credits) applied once per word, not once per query with it. Read, never changed: every
 * query with the word shares these objects, and add replaces, never changes, one it raises.
 */
interface OwnAlternatives {
  /** The concept term they were worked out for. */
  term: string;
  alternatives: readonly ConceptAlternative[];
  /** Each alternative's place in `alternatives`, by its key. */
  indexByKey: ReadonlyMap<string, number>;
}

/** The word's own alternatives for a concept named `term`: worked out once, or null when kept for another term. */
function ownAlternatives(entry: WordEntry, term: string): OwnAlternatives | null {
  if (entry.own !== null) return entry.own.term === term ? entry.own : null;
  const alternatives: ConceptAlternative[] = [];
  const indexByKey = new Map<string, number>();
  for (let index = 0; index < entry.bridges.length; index++) {
    const bridge = entry.bridges[index];
    if (bridge.terms.length === 1 && bridge.terms[0] === term) continue;
    const at = indexByKey.get(bridge.key);
    if (at === undefined) {
      indexByKey.set(bridge.key, alternatives.length);
      alternatives.push({
        terms: bridge.terms as string[],
        credit: bridge.credit,
        kind: bridge.kind,
        label: bridge.label,
      });
    } else if (bridge.credit > alternatives[at].credit) {
      alternatives[at] = {
        terms: alternatives[at].terms,
        credit: bridge.credit,
        kind: bridge.kind,
        label: bridge.label,
      };
    }
  }
  entry.own = { term, alternatives, indexByKey };
  return entry.own;
}
const MAX_CACHED_WORDS = 4096;

/**
 * The bridges of one informative query word, in the order queryConcepts has always added them.
 * `wordTerm` is termOf the word as a plain word when the caller has it (a plain word's own term):
 * asking the stems' cache again cost each new word a lookup.
 */
function wordBridges(surface: string, generic: boolean, wordTerm?: string): WordEntry {
  const cache = generic ? bridgesByWord.generic : bridgesByWord.topical;
  const cached = cache.get(surface);
  if (cached !== undefined) return cached;
  const bridges: WordBridge[] = [];
  const add = (terms: string[] | null, kind: BridgeKind, label: string, credit = BRIDGE_CREDIT[kind]): void => {
    if (terms !== null) bridges.push({ terms, kind, label, credit, key: terms.join(' ') });
  };
  // Asked once: the variants' cache is a Map the split parts of unknown words keep churning.
  const variants = wordFormVariants(surface);
  for (const variant of variants) add(wordTerms(variant), 'word form', `${surface} ← ${variant}`);
  // A generic word's synonyms and derived forms are generic too ("set": put, place, lay): they add
  // long postings to every search and little evidence, so only its inflections are kept.
  if (!generic) {
    const comparatives = comparativeOrAgentForms(surface);
    for (const variant of comparatives) add(formTerms(variant), 'derived form', `${surface} ← ${variant}`);
    // "allergies" -> allergy -> allergic: the other part of speech, which the stemmer does not join.
    // Most words have no variant: regularLemmas' own list is then already without repeats, no Set.
    const lemmas = regularLemmas(surface);
    for (const lemma of variants.length === 0 ? lemmas : new Set([...lemmas, ...variants])) {
      for (const derived of wordnetDerivations(lemma)) add(wordTerms(derived), 'derivation', `${surface} ← ${derived}`);
    }
    for (let index = -1; index < variants.length; index++) {
      const base = index < 0 ? surface : variants[index];
      // A generic synonym ("see" for "visit", "call" for "name") is in memories about anything: it
      // counts as a generic word does, half.
      for (const synonym of wordnetSynonyms(base))
        add(
          wordTerms(synonym),
          'synonym',
          `${surface} ← ${synonym}`,
          BRIDGE_CREDIT.synonym * (isGenericWord(synonym) ? GENERIC_WORD_INFORMATION : 1),
        );
    }
    // "lighter" -> light -> weight; "sped" -> speed -> fast, faster: an attribute and its comparative
    // forms. Without variants, the word and its comparatives (a Set's, without the word) repeat nothing.
    const bases = variants.length === 0 ? [surface, ...comparatives] : new Set([surface, ...variants, ...comparatives]);
    for (const base of bases) {
      for (const attribute of wordnetAttributes(base)) {
        for (const form of [attribute, ...comparativeOrAgentForms(attribute)])
          add(wordTerms(form), 'attribute', `${surface} ← ${form}`);
      }
    }
  }
  if (!generic) {
    const term = wordTerm ?? termOf({ text: surface, kind: 'word' });
    const names = term === null ? [] : softwareDescribedAs(term);
    for (const name of names)
      for (const terms of vocabularyTerms([name])) add(terms, 'described', `${surface} ← ${name}`);
  }
  if (bridgesByWord.generic.size + bridgesByWord.topical.size >= MAX_CACHED_WORDS) {
    bridgesByWord.generic.clear();
    bridgesByWord.topical.clear();
  }
  const entry: WordEntry = { bridges, own: null, phrase: null };
  cache.set(surface, entry);
  return entry;
}

/** Where a concept's alternatives are in its list, by key: the shared places of its first word's own, then this query's. */
interface ConceptPlaces {
  shared: ReadonlyMap<string, number> | null;
  added: Map<string, number> | null;
}

interface QueryWord {
  term: string;
  surface: string;
  kind: 'word' | 'whole' | 'part';
  /** What is kept of the word (wordBridges), once its bridges are asked for; null for a part. */
  entry: WordEntry | null;
}

/** "career-wise", "perf-wise": the suffix says "as regards"; the question is about the word before it. */
const REGARDING_SUFFIX = /\b(\p{L}[\p{L}\p{N}]*)-wise\b/gu;

/**
 * Concepts of queries already expanded, by text, for the vocabulary they were expanded with: a
 * recall expands its query twice (once to see whether its time phrases left a topic) and agents
 * repeat their queries. Cleared when full or when the vocabulary changes (an evaluation that
 * restricts it); callers get copies, so nothing they do reaches the next caller.
 */
const conceptsByText = new Map<string, readonly QueryConcept[]>();
const MAX_CACHED_QUERIES = 1024;
let conceptsVocabulary = -1;
let conceptsDescribed = describedSoftwareEnabled();
let conceptsClasses = languageClassesEnabled();

/** A concept as the cache holds it: every caller reads it, none may change it. */
export type SharedConceptAlternative = Readonly<Omit<ConceptAlternative, 'terms'>> & {
  readonly terms: readonly string[];
};
export type SharedQueryConcept = Readonly<Omit<QueryConcept, 'alternatives'>> & {
  readonly alternatives: readonly SharedConceptAlternative[];
};

/**
 * The cached concepts of one query themselves, typed read-only, for callers that only read them
 * (recall): a copy of every alternative was about a seventh of what a recall's expansion allocated.
 */
export function sharedQueryConcepts(text: string): readonly SharedQueryConcept[] {
  return sharedConcepts(text);
}

/** Concepts of one query: its informative words in order, each with its alternatives. */
export function queryConcepts(text: string): QueryConcept[] {
  return sharedConcepts(text).map((concept) => ({
    ...concept,
    alternatives: concept.alternatives.map((alternative) => ({ ...alternative, terms: alternative.terms.slice() })),
  }));
}

/** Whether the query has any concept: queryConcepts' answer without copying every concept to count them. */
export function hasConcepts(text: string): boolean {
  return sharedConcepts(text).length > 0;
}

/** The cached concepts of a query, shared by every caller: read, never changed (queryConcepts copies). */
function sharedConcepts(text: string): readonly QueryConcept[] {
  const generation = vocabularyGeneration();
  if (
    conceptsVocabulary !== generation ||
    conceptsDescribed !== describedSoftwareEnabled() ||
    conceptsClasses !== languageClassesEnabled()
  ) {
    conceptsByText.clear();
    bridgesByWord.generic.clear();
    bridgesByWord.topical.clear();
    conceptsVocabulary = generation;
    conceptsDescribed = describedSoftwareEnabled();
    conceptsClasses = languageClassesEnabled();
  }
  let concepts = conceptsByText.get(text);
  if (concepts === undefined) {
    concepts = expandQuery(text);
    if (conceptsByText.size >= MAX_CACHED_QUERIES) conceptsByText.clear();
    conceptsByText.set(text, concepts);
  }
  return concepts;
}

function expandQuery(text: string): QueryConcept[] {
  const words: QueryWord[] = [];
  const regarding = text.replace(REGARDING_SUFFIX, '$1');
  const tokens = tokenizeDetailed(regarding);
  // Each token's term, kept for the compound bridges, which would otherwise ask the stems' cache again.
  const tokenTerms: Array<string | null> = [];
  for (const token of tokens) {
    const term = termOf(token);
    tokenTerms.push(term);
    if (term !== null) words.push({ term, surface: token.text, kind: token.kind, entry: null });
  }
  const concepts = new Map<string, QueryConcept>();
  for (const word of words) {
    const concept = concepts.get(word.term) ?? {
      term: word.term,
      weight: 0,
      generic: true,
      topical: false,
      alternatives: [],
    };
    concept.weight += QUERY_KIND_WEIGHTS[word.kind];
    if (word.kind === 'whole') {
      concept.generic = false;
      concept.topical = true;
    } else if (concept.generic || !concept.topical) {
      // Looked up once for both flags (isGenericForm begins with it): a word's forms and spellings.
      const asWritten = isGenericAsWritten(word.surface);
      // Generic only when every form of it in the query is ("chose" is "choose").
      concept.generic &&= asWritten;
      concept.topical ||= !(asWritten || isGenericInflection(word.surface, word.term));
    }
    concepts.set(word.term, concept);
  }
  // Each concept's alternatives by key, as places in its list: those its first word brought (shared,
  // the word's own), then those added for this query.
  const placesOf = new Map<QueryConcept, ConceptPlaces>();
  const add = (
    concept: QueryConcept,
    terms: readonly string[] | null,
    kind: BridgeKind,
    label: string,
    credit = BRIDGE_CREDIT[kind],
    known?: string,
  ): void => {
    if (terms === null || (terms.length === 1 && terms[0] === concept.term)) return;
    // The cached bridges bring their key: joining every bridge's terms at every query was most of add's cost.
    const key = known ?? terms.join(' ');
    // By key rather than a scan of the concept's alternatives, which joined every one's terms at every add.
    let places = placesOf.get(concept);
    if (places === undefined) placesOf.set(concept, (places = { shared: null, added: null }));
    const at = places.shared?.get(key) ?? places.added?.get(key);
    if (at !== undefined) {
      const existing = concept.alternatives[at];
      // Replaced, not changed: it may be a word's own alternative, which other queries share.
      if (credit > existing.credit) concept.alternatives[at] = { terms: existing.terms, credit, kind, label };
      return;
    }
    // Not copied: every list offered here is read, never changed (the bridges' caches, the vocabulary's
    // term lists, lists made for this query), and so are these concepts, which queryConcepts copies
    // for its callers (test/core/retrieval/queryConceptsCache.test.ts).
    (places.added ??= new Map()).set(key, concept.alternatives.length);
    concept.alternatives.push({ terms: terms as string[], credit, kind, label });
  };

  // Indexed loops over the bridges (dozens a word): this function is large and not always optimised,
  // and unoptimised, a for-of allocates an iterator result per element (a heap profile of bench:load).
  for (const word of words) {
    if (word.kind === 'part') continue;
    const concept = concepts.get(word.term)!;
    const entry = wordBridges(word.surface, concept.generic, word.kind === 'word' ? word.term : undefined);
    word.entry = entry;
    // A concept's first word (most concepts have one) brings its alternatives as worked out before:
    // adding its bridges one by one, each looked up and made anew, was most of a query's own cost.
    const own = concept.alternatives.length === 0 ? ownAlternatives(entry, concept.term) : null;
    if (own !== null) {
      concept.alternatives = own.alternatives.slice();
      placesOf.set(concept, { shared: own.indexByKey, added: null });
      continue;
    }
    const bridges = entry.bridges;
    for (let index = 0; index < bridges.length; index++) {
      const bridge = bridges[index];
      add(concept, bridge.terms, bridge.kind, bridge.label, bridge.credit, bridge.key);
    }
  }

  const compounds = compoundBridges(tokens, tokenTerms, isGenericForm);
  for (let index = 0; index < compounds.length; index++) {
    const bridge = compounds[index];
    const concept = concepts.get(bridge.concept);
    if (concept) add(concept, bridge.terms, bridge.kind, bridge.label, bridge.credit, bridge.key);
  }

  // Phrases of the software vocabulary, longest first, over the informative words in order.
  const sequence = words.filter((word) => word.kind !== 'part');
  const { byTerms, firstTerms } = vocabulary();
  // An identifier whole ("iPhone") is indexed as written but named in the vocabulary as a word.
  const keys = sequence.map((word) =>
    word.kind === 'whole' ? (wordTerms(word.surface)?.[0] ?? word.term) : word.term,
  );
  for (let start = 0; start < sequence.length; start++) {
    // Keys hold no spaces, so a span can only be a phrase that begins with its first word's key.
    if (!firstTerms.has(keys[start])) continue;
    for (let length = Math.min(MAX_PHRASE_WORDS, sequence.length - start); length >= 1; length--) {
      if (length === 1) {
        // A word on its own: its phrases' bridges as kept for it, in the order the loop below adds them.
        const word = sequence[start];
        const concept = concepts.get(word.term)!;
        const bridges = phraseBridges(word.entry!, word.surface, keys[start], byTerms);
        for (let index = 0; index < bridges.length; index++) {
          const bridge = bridges[index];
          add(concept, bridge.terms, bridge.kind, bridge.label, bridge.credit, bridge.key);
        }
        continue;
      }
      const span = sequence.slice(start, start + length);
      const key = keys.slice(start, start + length).join(' ');
      // Most spans name nothing: the surfaces and the label are made only for those that might.
      const named = byTerms.get(key);
      if (named === undefined) continue;
      const surfaces = span.map((word) => word.surface.toLowerCase());
      const entries = named.filter((entry) => sameWords(surfaces, entry.words));
      const phrase = span.map((word) => word.surface).join(' ');
      for (const alternative of entries.flatMap((entry) => entry.alternatives)) {
        for (const terms of alternative.termLists)
          for (const word of span)
            add(concepts.get(word.term)!, terms, alternative.kind, `${phrase} ← ${alternative.text}`);
      }
    }
  }
  addClassMembers(sequence, keys, concepts);
  // The particle phrases read the words as written, "-wise" included: mostly the same tokens.
  addParticlePhrases(regarding === text ? tokens : tokenizeDetailed(text), concepts, add);
  const expanded: QueryConcept[] = [];
  concepts.forEach((concept) => {
    expanded.push(concept);
    // Nothing to reorder or cap for most concepts: no copies then.
    if (concept.alternatives.length < 2) return;
    // Strongest bridges first, so the cap drops the loosest. Splits count only for a word no memory
    // has (compoundWords.ts), where the other bridges have nothing to find: they stay outside the cap.
    // So does a class's alternative, loosest of all (any of hundreds of names), which the cap
    // would otherwise drop first.
    const splits: ConceptAlternative[] = [];
    const others: ConceptAlternative[] = [];
    for (let index = 0; index < concept.alternatives.length; index++) {
      const alternative = concept.alternatives[index];
      (alternative.kind === 'split' || alternative.kind === 'instance' ? splits : others).push(alternative);
    }
    sortByCreditDescending(others);
    if (others.length > MAX_ALTERNATIVES) others.length = MAX_ALTERNATIVES;
    for (let index = 0; index < splits.length; index++) others.push(splits[index]);
    concept.alternatives = others;
  });
  return expanded;
}

/** Each class's members as index term -> name, worked out once per class (vocabularyTerms of each name). */
const classTerms = new Map<string, ReadonlyMap<string, string>>();

function membersOf(key: string): ReadonlyMap<string, string> | null {
  let members = classTerms.get(key);
  if (members === undefined) {
    const names = languageClassMembers(key);
    if (names.length === 0) return null;
    const map = new Map<string, string>();
    for (const name of names) for (const terms of vocabularyTerms([name])) map.set(terms[0], name);
    classTerms.set(key, (members = map));
  }
  return members;
}

/**
 * A class of languages the query names ("programming language", "language"): every word of the
 * span gets one alternative that any member of the class covers, longest class first.
 */
function addClassMembers(
  sequence: readonly QueryWord[],
  keys: readonly string[],
  concepts: Map<string, QueryConcept>,
): void {
  for (let start = 0; start < sequence.length; start++) {
    for (let length = Math.min(MAX_CLASS_WORDS, sequence.length - start); length >= 1; length--) {
      // Every class ends with its head noun: most spans are ruled out before a key is made.
      if (!endsLanguageClass(keys[start + length - 1])) continue;
      const members = membersOf(keys.slice(start, start + length).join(' '));
      if (members === null) continue;
      const span = sequence.slice(start, start + length);
      const label = span.map((word) => word.surface).join(' ');
      const terms = [...members.keys()];
      for (const word of span) {
        const { alternatives } = concepts.get(word.term)!;
        // A class named twice ("language … language") is one alternative of its word.
        if (!alternatives.some((alternative) => alternative.members === members))
          alternatives.push({ terms, credit: BRIDGE_CREDIT.instance, kind: 'instance', label, members });
      }
      start += length - 1;
      break;
    }
  }
}

/** The weighted terms one lexical search needs for these concepts: each word, then its alternatives at a lower weight. */
export function searchTermsOf(concepts: readonly SharedQueryConcept[], scale = 1): WeightedTerm[] {
  const weights = new Map<string, number>();
  for (const concept of concepts) raiseWeight(weights, concept.term, concept.weight * scale);
  // Indexed: hundreds of alternatives' terms a query, and no iterator result for each when unoptimised.
  for (const concept of concepts) {
    for (let index = 0; index < concept.alternatives.length; index++) {
      const alternative = concept.alternatives[index];
      // A class's members are each the whole alternative; a phrase's words share it.
      const share = alternative.members === undefined ? alternative.terms.length : 1;
      const weight = (concept.weight * scale * alternative.credit * EXPANSION_SEARCH_WEIGHT) / share;
      for (let at = 0; at < alternative.terms.length; at++) raiseWeight(weights, alternative.terms[at], weight);
    }
  }
  return weightedTerms(weights);
}

/**
 * Strongest credit first, ties in their order (as a stable sort): by insertion, in place. A concept
 * has some dozens of alternatives at most, and Array.prototype.sort copies the list into a work
 * array on every call, one of expansion's larger allocations under bench:load.
 */
export function sortByCreditDescending(alternatives: ConceptAlternative[]): void {
  for (let index = 1; index < alternatives.length; index++) {
    const moving = alternatives[index];
    let at = index;
    while (at > 0 && alternatives[at - 1].credit < moving.credit) {
      alternatives[at] = alternatives[at - 1];
      at--;
    }
    alternatives[at] = moving;
  }
}

function raiseWeight(weights: Map<string, number>, term: string, weight: number): void {
  if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
}

/**
 * Phrasal verbs and states the vocabulary knows ("set up", "logged out", "production is down"):
 * found in the raw words, stop words included, with verbs in any form ("went down" is "go down").
 * The phrase replaces its informative word's concept: "logged out" is not about logs, nor "set up"
 * about the generic "set". The new concept is named by the phrase's first searchable alternative
 * ("logout", "install") and bridges to the others.
 */
function addParticlePhrases(
  written: readonly Token[],
  concepts: Map<string, QueryConcept>,
  add: (concept: QueryConcept, terms: string[] | null, kind: BridgeKind, label: string) => void,
): void {
  const { byWords } = vocabulary();
  const tokens = written.filter((token) => token.kind !== 'part');
  const surfaces = tokens.map((token) => token.text.toLowerCase());
  for (let start = 0; start < surfaces.length; start++) {
    for (let length = Math.min(MAX_PHRASE_WORDS, surfaces.length - start); length >= 2; length--) {
      // A particle phrase ends in a stop word: most spans are ruled out before they are cut.
      if (!isStopWord(surfaces[start + length - 1])) continue;
      const span = surfaces.slice(start, start + length);
      if (!isParticlePhrase(span)) continue;
      const entry = phraseForms(span)
        .map((form) => byWords.get(particleKey(form)))
        .find((found) => found !== undefined);
      if (!entry || entry.alternatives.length === 0) continue;
      const phrase = span.join(' ');
      let weight = 0;
      for (const word of span) {
        const term = isStopWord(word) ? null : termOf({ text: word, kind: 'word' });
        const head = term === null ? undefined : concepts.get(term);
        if (head === undefined) continue;
        weight = Math.max(weight, head.weight);
        concepts.delete(head.term);
      }
      const [first, ...rest] = entry.alternatives;
      const term = phraseTerms(first.words)!.join(' ');
      const concept = concepts.get(term) ?? { term, weight: 0, generic: false, topical: true, alternatives: [] };
      concept.weight = Math.max(concept.weight, weight || 1);
      concepts.set(term, concept);
      for (const alternative of rest)
        for (const terms of alternative.termLists)
          add(concept, terms.slice(), alternative.kind, `${phrase} ← ${alternative.text}`);
      start += length - 1;
      break;
    }
  }
}

/** The span as written, then with each irregular verb in its other forms ("went down" -> "go down"). */
function phraseForms(span: readonly string[]): string[][] {
  const forms = [span.slice()];
  span.forEach((word, index) => {
    for (const variant of wordFormVariants(word)) {
      const form = span.slice();
      form[index] = variant;
      forms.push(form);
    }
  });
  return forms;
}
