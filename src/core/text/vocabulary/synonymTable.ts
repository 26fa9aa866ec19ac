import {
  GENERIC_WORDS,
  WORDNET_ATTRIBUTES,
  WORDNET_DERIVATIONS,
  WORDNET_DERIVED_FROM,
  WORDNET_NOT_DERIVED,
  WORDNET_SYNONYMS,
} from './wordnetSynonyms.ts';
import { SortedLineTable } from './sortedLineTable.ts';
import { stem } from '../stemmer.ts';
import { tableStem } from './tableStem.ts';

/** "word:other,other" lines of a generated table, by word (the small tables read whole). */
function parseTable(text: string): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) table.set(line.slice(0, colon), line.slice(colon + 1).split(','));
  }
  return table;
}

const synonyms = new SortedLineTable(WORDNET_SYNONYMS);
const attributes = new SortedLineTable(WORDNET_ATTRIBUTES);
const derivedTo = new SortedLineTable(WORDNET_DERIVATIONS);
const derivedFrom = new SortedLineTable(WORDNET_DERIVED_FROM);

/** WordNet synonyms of a common lowercase word (the generated compact table); empty when none. */
export function wordnetSynonyms(word: string): readonly string[] {
  return synonyms.get(word);
}

/**
 * WordNet attributes of a lowercase word: for an adjective the quantity it is a value of ("fast":
 * speed), for such a quantity its adjectives ("weight": heavy, light); empty when none.
 */
export function wordnetAttributes(word: string): readonly string[] {
  return attributes.get(word);
}

/**
 * Words WordNet derives from a lowercase lemma, or it from them, that the stemmer keeps apart
 * ("allergy": allergic; "decision": decide; "failure": fail); empty when none. Each pair is listed
 * under both its words (WORDNET_DERIVATIONS and WORDNET_DERIVED_FROM); the alphabetically earlier
 * partners come first.
 */
export function wordnetDerivations(word: string): readonly string[] {
  const earlier = derivedFrom.get(word);
  const later = derivedTo.get(word);
  return earlier.length === 0 ? later : later.length === 0 ? earlier : [...earlier, ...later];
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
    for (const [longer, shorter] of parseTable(WORDNET_NOT_DERIVED))
      notDerived.set(longer, new Set(shorter.map(tableStem)));
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
