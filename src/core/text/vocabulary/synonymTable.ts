import { GENERIC_WORDS, WORDNET_SYNONYMS } from './wordnetSynonyms.ts';

let table: Map<string, string[]> | null = null;

/** WordNet synonyms of a common lowercase word (the generated compact table); empty when none. */
export function wordnetSynonyms(word: string): readonly string[] {
  if (table === null) {
    table = new Map();
    for (const line of WORDNET_SYNONYMS.split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) table.set(line.slice(0, colon), line.slice(colon + 1).split(','));
    }
  }
  return table.get(word) ?? [];
}

let generic: Set<string> | null = null;

/** True for the commonest verbs, adjectives and many-sense nouns of English (generated from WordNet's counts). */
export function isGenericWord(word: string): boolean {
  generic ??= new Set(GENERIC_WORDS.split(' '));
  return generic.has(word);
}
