import { CHECKED_GROUPS } from './checkedGroups.ts';
import { CLIPPINGS } from './clippings.ts';
import { LANGUAGE_ALIASES } from './languageAliases.ts';
import { abbreviationGroups, listGroups, type VocabularyGroup } from './vocabularyGroup.ts';

/**
 * Vocabulary of software work that general dictionaries lack (issue 30): the aliases of
 * programming languages generated from GitHub Linguist ("ts" / TypeScript, "golang" / Go;
 * scripts/build-language-aliases.mjs), the clipped words of Debian's package names ("doc" /
 * documentation, "env" / environment; scripts/build-clippings.mjs), and the few hand-written groups that a per-group check on
 * data they were not derived from kept (checkedGroups.ts, bench/vocabularyGroupCheck.ts). Used
 * both ways by query expansion (queryConcepts.ts).
 */

export interface PhraseEntry {
  /** The words of the phrase, lowercase. */
  words: string[];
  /** What it can also be called, each a phrase of lowercase words, with the bridge's label. */
  alternatives: Array<{ words: string[]; kind: 'abbreviation' | 'category' | 'member' | 'equivalent' }>;
}

type BridgeKind = PhraseEntry['alternatives'][number]['kind'];

export type { VocabularyGroup } from './vocabularyGroup.ts';

/** Every line the vocabulary is built from: each generated language alias and clipping, then the checked groups. */
export function vocabularyGroups(): VocabularyGroup[] {
  return [...abbreviationGroups(LANGUAGE_ALIASES), ...abbreviationGroups(CLIPPINGS), ...listGroups(CHECKED_GROUPS)];
}

function build(
  groups: readonly VocabularyGroup[],
  keep: ((group: VocabularyGroup) => boolean) | null,
): Map<string, PhraseEntry> {
  const entries = new Map<string, PhraseEntry>();
  // Each entry's alternatives by their words joined, to find a repeat without joining every
  // alternative again at each bridge (a fresh process builds this at its first query; issue 31).
  const held = new Map<string, Set<string>>();
  const add = (from: string[], to: string[], kind: BridgeKind): void => {
    const key = from.join(' ');
    const toKey = to.join(' ');
    if (key === toKey) return;
    let entry = entries.get(key);
    let keys = held.get(key);
    if (entry === undefined || keys === undefined) {
      entry = { words: from, alternatives: [] };
      keys = new Set();
      entries.set(key, entry);
      held.set(key, keys);
    }
    if (!keys.has(toKey)) {
      keys.add(toKey);
      entry.alternatives.push({ words: to, kind });
    }
  };
  for (const group of groups)
    if (keep === null || keep(group)) for (const [from, to, kind] of group.bridges) add(from, to, kind);
  return entries;
}

let table: Map<string, PhraseEntry> | null = null;
let evaluationFilter: ((group: VocabularyGroup) => boolean) | null = null;
let evaluationGroups: readonly VocabularyGroup[] | null = null;

/**
 * Evaluation seam (bench/vocabularyHoldout.ts, bench/vocabularyGroupCheck.ts): the vocabulary
 * built from `groups` (by default the product's own) with only those `keep` accepts, or the
 * product's vocabulary again with null, so a check can measure what each group does on data it
 * was not derived from. Nothing in the product calls it.
 */
export function restrictVocabularyForEvaluation(
  keep: ((group: VocabularyGroup) => boolean) | null,
  groups: readonly VocabularyGroup[] | null = null,
): void {
  evaluationFilter = keep;
  evaluationGroups = keep === null ? null : groups;
  table = null;
  generation++;
}

let generation = 0;

/** Changes whenever the vocabulary does (restrictVocabularyForEvaluation): what caches of it are keyed by. */
export function vocabularyGeneration(): number {
  return generation;
}

/** True unless an evaluation restricted the vocabulary: it is then the one the build indexed (vocabularyIndexTable.ts). */
export function isProductVocabulary(): boolean {
  return evaluationFilter === null;
}

/** Phrase (words joined by one space) -> what else it is called. Built once, on first use. */
export function softwareVocabulary(): ReadonlyMap<string, PhraseEntry> {
  table ??= build(evaluationGroups ?? vocabularyGroups(), evaluationFilter);
  return table;
}

/** Longest phrase the vocabulary knows, in words: how far ahead the query scan looks. */
export const MAX_PHRASE_WORDS = 4;
