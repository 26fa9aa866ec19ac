// Writes the committed source of the software category table (scripts/build-software-categories.mjs):
// each package of Debian's main archive with its source package and its one-line description, read
// from the apt lists of this machine (the "Packages" index of a Debian release, as apt fetched it).
// A point release changes the index, so the extract is committed and the table is built from it;
// this script is what made the extract, and its header names the snapshot (the Release file's
// suite, version and date).
//
// Kept: Package, Source (the package itself when absent) and Description, one package a line,
// tab-separated, in the index's order. Left out: packages whose description says they are only a
// transitional, dummy or debug-symbol package (they describe no software of their own).
// Run: node scripts/extract-debian-descriptions.mjs [--lists DIR] [--out PATH]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const lists = argument('--lists', '/var/lib/apt/lists');
const out = argument('--out', new URL('./sources/debian-main-descriptions.txt', import.meta.url).pathname);

const RELEASE_MAIN = /_dists_([a-z]+)_main_binary-([a-z0-9]+)_Packages(\.lz4)?$/;
const index = readdirSync(lists).find((name) => RELEASE_MAIN.test(name));
if (index === undefined) throw new Error(`no main Packages index of a release in ${lists}`);
const [, suite, architecture, lz4] = RELEASE_MAIN.exec(index);
const text = lz4
  ? execFileSync('lz4cat', [join(lists, index)], { maxBuffer: 1 << 30, encoding: 'utf8' })
  : readFileSync(join(lists, index), 'utf8');
const release = readFileSync(join(lists, index.replace(/_main_binary-.*$/, '_InRelease')), 'utf8');
const field = (name) => new RegExp(`^${name}: (.*)$`, 'm').exec(release)?.[1] ?? 'unknown';

const NOT_SOFTWARE = /\b(transitional|dummy) package\b|\bdebug(ging)? symbols\b/i;
const lines = [];
for (const stanza of text.split('\n\n')) {
  const get = (name) => new RegExp(`^${name}: (.*)$`, 'm').exec(stanza)?.[1];
  const name = get('Package');
  const description = get('Description');
  if (name === undefined || description === undefined || NOT_SOFTWARE.test(description)) continue;
  const source = (get('Source') ?? name).split(' ')[0];
  lines.push(`${name}\t${source}\t${description.replace(/\t/g, ' ').trim()}`);
}

const header = [
  `# Debian ${field('Suite')} (${suite}) ${field('Version')}, main, ${architecture}: Package, Source and Description of every package`,
  `# but transitional, dummy and debug-symbol packages. Release date: ${field('Date')}.`,
  `# Extracted by scripts/extract-debian-descriptions.mjs from the apt lists (${index}).`,
  "# Terms: each description is the package maintainers' text from the package's debian/control; every package in",
  '# Debian main is free software under the Debian Free Software Guidelines (https://www.debian.org/social_contract#guidelines),',
  '# its copyright and licence in /usr/share/doc/<package>/copyright and at https://metadata.ftp-master.debian.org/changelogs/.',
  '# The archive and its indices are published by the Debian project, https://www.debian.org/distrib/archive.',
];
writeFileSync(out, `${header.join('\n')}\n${lines.join('\n')}\n`);
console.log(`${lines.length} packages -> ${out}`);
