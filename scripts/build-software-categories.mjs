// Derives the software category table the query expansion ships (src/core/text/vocabulary/softwareCategories.ts)
// from Debian's package descriptions (scripts/sources/debian-main-descriptions.txt, made from the apt
// lists by scripts/extract-debian-descriptions.mjs): what a piece of software is, in the words its
// packagers used ("Python3 interface to the MongoDB document-oriented database", "lightweight
// database migration tool for SQLAlchemy"), so a question naming the kind of thing ("document
// database", "migration tool") finds a memory that names only the software (MongoDB, Alembic).
//
// A description's names are the upstream names of its package and source ("python3-alembic" and
// "alembic" are alembic; "golang-github-minio-minio-go-dev" is minio and miniogo), the family its
// package extends ("pytest-xdist": pytest) and the names it writes with a capital that some package is
// named for ("MongoDB", "Prometheus"). Each name is linked to the description's other content words
// (index terms, so "migrations" is "migrat"), once per source package. Every rule is a count of the
// archive or of WordNet, none a word list:
//   - a name is no English word in use (WordNet 3.1, SemCor tag count >= ENGLISH_TAGS over all its
//     senses: "go", "black", "make"), nor a word descriptions write in lower case more than
//     LOWERCASE_USES times as often as packages are named for it ("plugins", "bindings");
//   - a name in more than MAX_NAME_SHARE of the source packages is a platform or format that
//     hundreds of packages are built on or for (Linux, GNOME, JSON, Django, PostgreSQL): what it is
//     is lost among what they are;
//   - a word in more than MAX_WORD_SHARE of the descriptions says how software is packaged
//     ("library", "python", "module", "documentation"), not what it is;
//   - a link needs MIN_SOURCES source packages, and the word must be among the name's NAME_TERMS
//     strongest (sources linking them times the word's rarity), so a name that shares descriptions
//     with many words is listed under its own.
// Keyed by word: the word's names, strongest link first (linking sources times the square root of
// the share of the name's sources that link), at most MAX_NAMES a word.
// Run: node scripts/build-software-categories.mjs [--out PATH] (rewrites the table; commit the result).
import { writeFileSync } from 'node:fs';
import { termOf } from '../src/core/text/analyzer.ts';
import { tokenizeDetailed } from '../src/core/text/tokenizer.ts';
import {
  addToSetOf,
  DEBIAN_PACKAGES,
  DEBIAN_RELEASE,
  DEBIAN_RELEASE_DATE,
  englishTagCounts,
} from './debianSources.mjs';

const ENGLISH_TAGS = 3;
const MAX_WORD_SHARE = 0.02;
const MIN_SOURCES = 2;
const MAX_NAME_SHARE = 0.005;
const LOWERCASE_USES = 3;
const MAX_NAMES = 16;
const NAME_TERMS = 8;
const NAME = /^[a-z][a-z0-9]{2,}$/;
const TERM = /^[a-z]{3,}$/;

const englishTags = englishTagCounts();
const isName = (word) => NAME.test(word) && (englishTags.get(word) ?? 0) < ENGLISH_TAGS;

/** Packaging prefixes and suffixes around an upstream name: the archive's naming policy, not words. */
const PREFIX = /^(python3?|pypy|node|ruby|php|perl|lua|elpa|golang|librust|r-cran|r-bioc|libghc|ocaml|tcl|guile)-/;
const SUFFIX = /-(dev|doc|docs|common|data|bin|dbg|utils|tools|examples|perl|java|ocaml|cil|go|py|js|rs|el)$/;
/** The upstream names a package or source name stands for. */
function upstreamNames(packageName, isSource = false) {
  const names = new Set();
  let name = packageName.replace(/\+/g, 'plus');
  for (let changed = true; changed;) {
    const before = name;
    name = name.replace(SUFFIX, '').replace(/[.-]?v?\d+(\.\d+)*$/, '');
    changed = name !== before;
  }
  const github = /^golang-(github|gitlab|gopkg|golang|google|k8s)-(.*)$/.exec(name);
  if (github) {
    const [owner, ...repo] = github[2].split('-');
    names.add(owner);
    if (repo.length > 0) names.add(repo.join(''));
  } else {
    const bare = name.replace(PREFIX, '');
    // "libfoo-dev" is the library of source foo, named by its source; a source may start with "lib" ("libvirt").
    if (!bare.startsWith('lib') || isSource) names.add(bare.replace(/-/g, ''));
  }
  return [...names].filter(isName);
}

/** The first part of a hyphenated package name, the software a family of packages extends ("pytest-xdist"). */
function familyOf(packageName) {
  const family = packageName.replace(PREFIX, '').split('-')[0];
  return family !== packageName && !family.startsWith('lib') && !SUFFIX.test(`-${family}`) && isName(family)
    ? family
    : '';
}

/** Sources named for each upstream name, and sources whose descriptions write it as a lowercase word. */
const namedSources = new Map();
const lowercaseSources = new Map();
for (const [name, source, description] of DEBIAN_PACKAGES) {
  for (const upstream of [...upstreamNames(name), ...upstreamNames(source, true), familyOf(name)])
    addToSetOf(namedSources, upstream, source);
  for (const word of description.split(/[^A-Za-z0-9]+/))
    if (/^[a-z]/.test(word)) addToSetOf(lowercaseSources, word, source);
}
// A name that descriptions use as a plain word more often than packages are named for it is a word
// of packaging ("plugins", "bindings", "utilities"), not software.
const packagedNames = new Set(
  [...namedSources]
    .filter(([name, sources]) => (lowercaseSources.get(name)?.size ?? 0) <= LOWERCASE_USES * sources.size)
    .map(([name]) => name),
);

/**
 * Names a package mentions: a word of its description written with a capital ("MongoDB", "Prometheus"),
 * or a part of its hyphenated name ("prometheus-apache-exporter"), that some package is named for.
 */
function mentionedNames(packageName, description) {
  const words = [...description.split(/[^A-Za-z0-9]+/).filter((word) => /[A-Z]/.test(word)), familyOf(packageName)];
  return words.map((word) => word.toLowerCase()).filter((word) => packagedNames.has(word));
}

/** name -> term -> sources linking them; name -> its sources; term -> sources whose descriptions have it. */
const links = new Map();
const sourcesOf = new Map();
const termSources = new Map();
for (const [name, source, description] of DEBIAN_PACKAGES) {
  const names = new Set(
    [...upstreamNames(name), ...upstreamNames(source, true), ...mentionedNames(name, description)].filter((upstream) =>
      packagedNames.has(upstream),
    ),
  );
  const terms = new Set();
  for (const token of tokenizeDetailed(description)) {
    if (token.kind === 'part') continue;
    const term = termOf(token);
    if (term !== null && TERM.test(term) && !names.has(token.text.toLowerCase())) terms.add(term);
  }
  for (const term of terms) addToSetOf(termSources, term, source);
  for (const upstream of names) {
    addToSetOf(sourcesOf, upstream, source);
    let byTerm = links.get(upstream);
    if (byTerm === undefined) links.set(upstream, (byTerm = new Map()));
    for (const term of terms) if (term !== termOf({ text: upstream, kind: 'word' })) addToSetOf(byTerm, term, source);
  }
}

const sourceCount = new Set(DEBIAN_PACKAGES.map(([, source]) => source)).size;
const namesByTerm = new Map();
for (const [upstream, byTerm] of links) {
  const total = sourcesOf.get(upstream).size;
  if (total > MAX_NAME_SHARE * sourceCount) continue;
  // The name's own strongest words (sources linking them, times the word's rarity in the archive):
  // a link counts only when the word is among them, so a name that co-occurs with everything
  // ("linux", "json") is not listed under each word it happens to share a description with.
  const own = [...byTerm]
    .filter(
      ([term, sources]) => sources.size >= MIN_SOURCES && termSources.get(term).size <= MAX_WORD_SHARE * sourceCount,
    )
    .map(([term, sources]) => [term, sources.size, sources.size * Math.log(sourceCount / termSources.get(term).size)])
    .sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, NAME_TERMS);
  for (const [term, linked] of own) {
    const strength = linked * Math.sqrt(linked / total);
    let ranked = namesByTerm.get(term);
    if (ranked === undefined) namesByTerm.set(term, (ranked = []));
    ranked.push([upstream, strength]);
  }
}
const lines = [...namesByTerm]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([term, ranked]) => {
    ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `${term}:${ranked
      .slice(0, MAX_NAMES)
      .map(([upstream]) => upstream)
      .join(',')}`;
  });

const body = `// Generated by scripts/build-software-categories.mjs from ${DEBIAN_RELEASE} package descriptions; do not edit.
// Source: scripts/sources/debian-main-descriptions.txt (${DEBIAN_RELEASE_DATE}). Terms: the descriptions are
// the package maintainers' text; every package in Debian main is free software under the Debian Free Software Guidelines.
// English words in use are left out by WordNet 3.1 (Princeton University; licence: https://wordnet.princeton.edu/license-and-commercial-use).
// One index term a line, "term:name,name": the software names Debian's descriptions link to the word, strongest first.
export const SOFTWARE_CATEGORIES = \`${lines.join('\n')}\`;
`;
const outIndex = process.argv.indexOf('--out');
writeFileSync(
  outIndex > 0
    ? process.argv[outIndex + 1]
    : new URL('../src/core/text/vocabulary/softwareCategories.ts', import.meta.url),
  body,
);
console.log(`${lines.length} terms, ${body.length} bytes`);
