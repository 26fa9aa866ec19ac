import { LANGUAGE_ALIASES } from './languageAliases.ts';

/**
 * Vocabulary of software work that general dictionaries lack, generated from public lists only
 * (issue 30): the aliases of programming languages from GitHub Linguist ("ts" / TypeScript,
 * "golang" / Go; scripts/build-language-aliases.mjs). Used both ways by query expansion
 * (queryConcepts.ts). The hand-written abbreviations, categories and equivalents that were here
 * followed the development set's wording: a leave-one-project-out check on coding-dev-2
 * (bench/vocabularyHoldout.ts, docs/retrieval.md) kept none of them.
 */

export interface PhraseEntry {
  /** The words of the phrase, lowercase. */
  words: string[];
  /** What it can also be called, each a phrase of lowercase words, with the bridge's label. */
  alternatives: Array<{ words: string[]; kind: 'abbreviation' | 'category' | 'member' | 'equivalent' }>;
}

function words(phrase: string): string[] {
  return phrase
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

type BridgeKind = PhraseEntry['alternatives'][number]['kind'];

/** One line of a generated list: a language and its aliases. */
export interface VocabularyGroup {
  /** The line as written, prefixed by its kind ("abbreviation: ts = typescript"): how a check names it. */
  id: string;
  /** Each bridge the line makes: from a phrase, to another, of a kind. */
  bridges: Array<[string[], string[], BridgeKind]>;
}

/** Every generated line as the bridges it makes: each alias and its language, both ways. */
export function vocabularyGroups(): VocabularyGroup[] {
  return LANGUAGE_ALIASES.trim()
    .split('\n')
    .map((line) => {
      const [aliases, name] = line.split(' = ');
      const bridges: VocabularyGroup['bridges'] = [];
      for (const alias of aliases.split(',')) {
        bridges.push([words(alias), words(name), 'abbreviation']);
        bridges.push([words(name), words(alias), 'abbreviation']);
      }
      return { id: `abbreviation: ${line.trim()}`, bridges };
    });
}

function build(keep: ((group: VocabularyGroup) => boolean) | null): Map<string, PhraseEntry> {
  const entries = new Map<string, PhraseEntry>();
  const add = (from: string[], to: string[], kind: BridgeKind): void => {
    const key = from.join(' ');
    if (key === to.join(' ')) return;
    const entry = entries.get(key) ?? { words: from, alternatives: [] };
    if (!entry.alternatives.some((alternative) => alternative.words.join(' ') === to.join(' ')))
      entry.alternatives.push({ words: to, kind });
    entries.set(key, entry);
  };
  for (const group of vocabularyGroups())
    if (keep === null || keep(group)) for (const [from, to, kind] of group.bridges) add(from, to, kind);
  return entries;
}

let table: Map<string, PhraseEntry> | null = null;
let evaluationFilter: ((group: VocabularyGroup) => boolean) | null = null;

/**
 * Evaluation seam (bench/vocabularyHoldout.ts): the vocabulary with only the groups `keep`
 * accepts, or all of them again with null, so a check can measure what each group does on data it
 * was not derived from. Nothing in the product calls it.
 */
export function restrictVocabularyForEvaluation(keep: ((group: VocabularyGroup) => boolean) | null): void {
  evaluationFilter = keep;
  table = null;
}

/** Phrase (words joined by one space) -> what else it is called. Built once, on first use. */
export function softwareVocabulary(): ReadonlyMap<string, PhraseEntry> {
  table ??= build(evaluationFilter);
  return table;
}

/** Longest phrase the vocabulary knows, in words: how far ahead the query scan looks. */
export const MAX_PHRASE_WORDS = 4;
