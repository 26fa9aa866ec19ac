import {
  GENERIC_WORDS,
  WORDNET_ATTRIBUTES,
  WORDNET_DERIVATIONS,
  WORDNET_NOT_DERIVED,
  WORDNET_SYNONYMS,
} from './wordnetSynonyms.ts';
import { stem } from '../stemmer.ts';

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

let derivations: Map<string, string[]> | null = null;

/**
 * Words WordNet derives from a lowercase lemma, or it from them, that the stemmer keeps apart
 * ("allergy": allergic; "decision": decide; "failure": fail); empty when none. The table holds each
 * pair once, so it is read both ways.
 */
export function wordnetDerivations(word: string): readonly string[] {
  if (derivations === null) {
    const bothWays = new Map<string, string[]>();
    for (const [first, others] of parseTable(WORDNET_DERIVATIONS)) {
      for (const other of others) {
        bothWays.set(first, [...(bothWays.get(first) ?? []), other]);
        bothWays.set(other, [...(bothWays.get(other) ?? []), first]);
      }
    }
    derivations = bothWays;
  }
  return derivations.get(word) ?? [];
}

let notDerived: Map<string, Set<string>> | null = null;

/**
 * True when a common word only looks like the comparative or agent noun of a shorter one
 * ("career" / "care", "corner" / "corn"), in either order: derivedForms must not join them.
 * Compared by stem, since the index stems the form it looks up ("caree" is "care").
 */
export function isFalseDerivedForm(word: string, other: string): boolean {
  if (notDerived === null) {
    notDerived = new Map();
    for (const [longer, shorter] of parseTable(WORDNET_NOT_DERIVED)) notDerived.set(longer, new Set(shorter.map(stem)));
  }
  const [longer, shorter] = word.length > other.length ? [word, other] : [other, word];
  return notDerived.get(longer)?.has(stem(shorter)) ?? false;
}

let generic: Set<string> | null = null;

/** True for the commonest verbs, adjectives and many-sense nouns of English (generated from WordNet's counts). */
export function isGenericWord(word: string): boolean {
  generic ??= new Set(GENERIC_WORDS.split(' '));
  return generic.has(word);
}

/** The generic words themselves, as isGenericWord knows them (lemmas). */
export function genericWords(): readonly string[] {
  generic ??= new Set(GENERIC_WORDS.split(' '));
  return [...generic];
}
