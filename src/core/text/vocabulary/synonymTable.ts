import { GENERIC_WORDS, WORDNET_ATTRIBUTES, WORDNET_SYNONYMS } from './wordnetSynonyms.ts';

/** "word:other,other" lines of a generated table, by word. */
function parseTable(text: string): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) table.set(line.slice(0, colon), line.slice(colon + 1).split(','));
  }
  return table;
}

let synonyms: Map<string, string[]> | null = null;

/** WordNet synonyms of a common lowercase word (the generated compact table); empty when none. */
export function wordnetSynonyms(word: string): readonly string[] {
  synonyms ??= parseTable(WORDNET_SYNONYMS);
  return synonyms.get(word) ?? [];
}

let attributes: Map<string, string[]> | null = null;

/**
 * WordNet attributes of a lowercase word: for an adjective the quantity it is a value of ("fast":
 * speed), for such a quantity its adjectives ("weight": heavy, light); empty when none.
 */
export function wordnetAttributes(word: string): readonly string[] {
  attributes ??= parseTable(WORDNET_ATTRIBUTES);
  return attributes.get(word) ?? [];
}

let generic: Set<string> | null = null;

/** True for the commonest verbs, adjectives and many-sense nouns of English (generated from WordNet's counts). */
export function isGenericWord(word: string): boolean {
  generic ??= new Set(GENERIC_WORDS.split(' '));
  return generic.has(word);
}
