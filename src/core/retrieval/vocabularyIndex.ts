/**
 * The software vocabulary (softwareVocabulary.ts) indexed by how a query can name each phrase: by
 * the index terms of its informative words, or, for a verb and its particle ("log in"), by its words.
 * Building it stems and splits every phrase of the vocabulary in code a fresh process has not yet
 * compiled, about 30 ms of its first recall (issue 31); the product's own index is built once at
 * build time instead (scripts/build-vocabulary-index.mjs writes vocabularyIndexTable.ts) and read
 * with JSON.parse. An evaluation that restricts the vocabulary builds its own with the same code.
 */
import { isStopWord } from '../text/stopwords.ts';
import type { PhraseEntry } from '../text/vocabulary/softwareVocabulary.ts';
import { tableStem } from '../text/vocabulary/tableStem.ts';
import { VOCABULARY_INDEX } from './vocabularyIndexTable.ts';

/**
 * termOf of a word of the tables (a vocabulary phrase's, a generic word, a class's member): its stem
 * read from the generated table (tableStem.ts), so building the lookups at the first query stems
 * nothing; null for a stop word, as termOf.
 */
export function tableTerm(word: string): string | null {
  return isStopWord(word) ? null : tableStem(word);
}

/** Index terms of a phrase (stop words dropped), or null when nothing informative is left. */
export function phraseTerms(words: readonly string[]): string[] | null {
  const terms = words.map(tableTerm).filter((term): term is string => term !== null);
  return terms.length > 0 ? terms : null;
}

/** A vocabulary alternative with what expansion makes of it worked out once, not per query that names it. */
export interface IndexedAlternative {
  words: string[];
  kind: PhraseEntry['alternatives'][number]['kind'];
  /** vocabularyTerms of its words. */
  termLists: string[][];
  /** Its words joined by spaces, for labels. */
  text: string;
}

/** A vocabulary phrase with its searchable alternatives indexed. */
export interface IndexedEntry {
  words: string[];
  alternatives: IndexedAlternative[];
}

/** The software vocabulary, split by how a query can name each phrase. */
export interface VocabularyIndex {
  /**
   * Phrases of informative words, keyed by their index terms, so "pull requests" finds "pull
   * request". Several entries can share a key ("production", "product"): each is kept apart and
   * matched by its words' inflections (isInflectionOf).
   */
  byTerms: Map<string, IndexedEntry[]>;
  /** The first term of every key of byTerms: a query word no phrase begins with starts no span worth cutting. */
  firstTerms: Set<string>;
  /**
   * Phrasal verbs and states ("set up", "log in", "is down"), keyed by their words with the
   * informative one stemmed: the particle is what tells "log in" from "log".
   */
  byWords: Map<string, IndexedEntry>;
}

/**
 * A verb and its particle, or a state of stop words ("set up", "logged out", "is down"): at most
 * one informative word, ending in a stop word. The index keeps only that word ("log"), which
 * alone means something else, so such a phrase is recognised in the query's own words.
 * "End to end" or "single sign on" keep two informative words and are matched by them.
 */
export function isParticlePhrase(words: readonly string[]): boolean {
  return isStopWord(words.at(-1)!) && words.filter((word) => !isStopWord(word)).length <= 1;
}

/**
 * Index terms a vocabulary phrase can have in a memory: stemmed as prose, and for a single word
 * whose final "s" the stemmer drops also as written, since a name like "iOS" or "macOS" is indexed
 * as an identifier whole ("ios"), which the stemmer would have made "io".
 */
export function vocabularyTerms(words: readonly string[]): string[][] {
  const stemmed = phraseTerms(words);
  if (stemmed === null) return [];
  return words.length === 1 && `${stemmed[0]}s` === words[0] ? [stemmed, [words[0]]] : [stemmed];
}

/** Key of a phrase with its stop words kept: "logged out" and "log out" share "log out". */
export function particleKey(words: readonly string[]): string {
  return words.map((word) => tableTerm(word) ?? word).join(' ');
}

/** The software vocabulary indexed by how a query can name each phrase (what vocabulary() in queryConcepts.ts reads). */
export function buildVocabularyIndex(source: ReadonlyMap<string, PhraseEntry>): VocabularyIndex {
  const index: VocabularyIndex = { byTerms: new Map(), firstTerms: new Set(), byWords: new Map() };
  for (const entry of source.values()) {
    // A particle phrase cannot be searched for: the index drops "in" from "log in", and "log"
    // alone is another word. It still counts when the query says it (byWords).
    const searchable: IndexedEntry = {
      words: entry.words,
      alternatives: entry.alternatives
        .filter(({ words }) => !isParticlePhrase(words))
        .map(({ words, kind }) => ({ words, kind, termLists: vocabularyTerms(words), text: words.join(' ') })),
    };
    if (isParticlePhrase(entry.words)) {
      const key = particleKey(entry.words);
      const known = index.byWords.get(key);
      index.byWords.set(
        key,
        known ? { words: known.words, alternatives: [...known.alternatives, ...searchable.alternatives] } : searchable,
      );
      continue;
    }
    const terms = phraseTerms(entry.words);
    if (terms === null) continue;
    const key = terms.join(' ');
    index.byTerms.set(key, [...(index.byTerms.get(key) ?? []), searchable]);
    index.firstTerms.add(key.split(' ')[0]);
  }
  return index;
}

/** The index as the generated table writes it: one line of JSON a key, the particle phrases marked. */
export function vocabularyIndexLines(index: VocabularyIndex): string[] {
  const lines: string[] = [];
  for (const [key, entries] of index.byTerms) lines.push(JSON.stringify(['terms', key, entries]));
  for (const [key, entry] of index.byWords) lines.push(JSON.stringify(['words', key, entry]));
  return lines;
}

/** The index of vocabularyIndexLines, with firstTerms worked out from the keys. */
export function vocabularyIndexFromLines(text: string): VocabularyIndex {
  const index: VocabularyIndex = { byTerms: new Map(), firstTerms: new Set(), byWords: new Map() };
  for (const [kind, key, value] of JSON.parse(`[${text.split('\n').join(',')}]`) as Array<
    ['terms', string, IndexedEntry[]] | ['words', string, IndexedEntry]
  >) {
    if (kind === 'terms') {
      index.byTerms.set(key, value as IndexedEntry[]);
      index.firstTerms.add(key.split(' ')[0]);
    } else index.byWords.set(key, value as IndexedEntry);
  }
  return index;
}

let productIndex: VocabularyIndex | null = null;

/** The product vocabulary's index, from the generated table; parsed once. */
export function productVocabularyIndex(): VocabularyIndex {
  return (productIndex ??= vocabularyIndexFromLines(VOCABULARY_INDEX));
}
