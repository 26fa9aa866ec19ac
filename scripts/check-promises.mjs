// `node scripts/check-promises.mjs [root]`: checks docs/promises.md, the index of the behavioural
// promises of README.md, SECURITY.md and RELIABILITY.md, against those documents and the tests.
// Run by `npm test` before the test files (scripts/run-tests.mjs). The format is described at the
// top of docs/promises.md. It fails (exit 1, one line per problem) when
//   - a `<!-- promise:ID -->` marker in a document has no entry in the index, or appears twice;
//   - an index entry names a document that holds no marker with its id, or repeats an id;
//   - an entry names no test, a test file that does not exist, or a test name that no
//     it(…)/test(…)/describe(…) title of that file matches.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PROMISE_DOCUMENTS = ['README.md', 'SECURITY.md', 'RELIABILITY.md'];

/** The documents whose promises are indexed: the three at the top, and every page of docs/ but the index. */
export function promiseDocuments(root) {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md') && `docs/${name}` !== INDEX)
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return [...PROMISE_DOCUMENTS, ...docs];
}
export const INDEX = 'docs/promises.md';

const ID = '[a-z0-9]+(?:-[a-z0-9]+)*';
const MARKER = new RegExp(`<!--\\s*promise:(${ID})\\s*-->`, 'g');
// `- `id` SECURITY.md › Section — the promise`
const ENTRY = new RegExp(`^- \`(${ID})\` (\\S+\\.md) › ([^—]+?) — (.+)$`);
// `  - `test/x.test.ts` › "a test name"`
const TEST = /^ {2}- `([^`]+)` › "(.+)"\s*$/;

/** The promise ids marked in one document, with the line of each. */
export function markersOf(text) {
  const markers = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(MARKER)) markers.push({ id: match[1], line: index + 1 });
  });
  return markers;
}

/** The entries of the index: id, document, section, text and the tests named under each. */
export function parseIndex(text) {
  const entries = [];
  const problems = [];
  let current = null;
  text.split('\n').forEach((line, index) => {
    const at = `${INDEX}:${index + 1}`;
    const entry = ENTRY.exec(line);
    if (entry) {
      current = { id: entry[1], document: entry[2], section: entry[3].trim(), text: entry[4].trim(), tests: [], at };
      entries.push(current);
      return;
    }
    const test = TEST.exec(line);
    if (test) {
      if (!current) problems.push(`${at}: a test line before any promise entry`);
      else current.tests.push({ file: test[1], name: test[2], at });
      return;
    }
    // Headings and prose between entries are free; a line that looks like an entry or a test but is
    // not of the format would silently drop a promise or a test, so it is an error.
    if (/^ {0,2}- `/.test(line)) problems.push(`${at}: not an entry or test line of the documented format: ${line}`);
  });
  return { entries, problems };
}

/**
 * The titles of the tests, suites and describes of a test file, as patterns: a template title's
 * `${…}` parts match any text, so "vendor prefix ghr_ is redacted as github-token" names one case
 * of `vendor prefix ${prefix} is redacted as ${kind}`.
 */
export function testTitlesOf(source) {
  const titles = [];
  const call = /\b(?:it|test|describe|suite)(?:\.(?:only|skip|todo))?\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*?)\1/g;
  for (const match of source.matchAll(call)) {
    const literal = match[2];
    const pattern = literal
      .split(/\$\{[^}]*\}/)
      .map((part) => unescape(part, match[1]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
    titles.push(new RegExp(`^${pattern}$`));
  }
  return titles;
}

function unescape(text, quote) {
  return text.replace(/\\(.)/g, (_, char) =>
    char === 'n' ? '\n' : char === quote || char === '\\' ? char : `\\${char}`,
  );
}

/** Every problem of the index against the documents and tests under `root`; empty when all is well. */
export function checkPromises(root) {
  const problems = [];
  const indexPath = join(root, INDEX);
  if (!existsSync(indexPath)) return [`${INDEX} is missing`];
  const { entries, problems: formatProblems } = parseIndex(readFileSync(indexPath, 'utf8'));
  problems.push(...formatProblems);

  const documents = promiseDocuments(root);
  const marked = new Map();
  for (const document of documents) {
    const path = join(root, document);
    if (!existsSync(path)) continue;
    for (const marker of markersOf(readFileSync(path, 'utf8'))) {
      const key = `${document}#${marker.id}`;
      if (marked.has(key)) problems.push(`${document}:${marker.line}: promise ${marker.id} is marked twice`);
      marked.set(key, marker);
    }
  }

  const seen = new Set();
  const titleCache = new Map();
  for (const entry of entries) {
    if (seen.has(entry.id)) problems.push(`${entry.at}: promise ${entry.id} is indexed twice`);
    seen.add(entry.id);
    if (!documents.includes(entry.document))
      problems.push(`${entry.at}: promise ${entry.id} names ${entry.document}, not one of ${documents.join(', ')}`);
    else if (!marked.has(`${entry.document}#${entry.id}`))
      problems.push(`${entry.at}: promise ${entry.id} has no <!-- promise:${entry.id} --> marker in ${entry.document}`);
    if (entry.tests.length === 0)
      problems.push(`${entry.at}: promise ${entry.id} names no test that fails when it breaks`);
    for (const test of entry.tests) {
      const path = join(root, test.file);
      if (!existsSync(path)) {
        problems.push(`${test.at}: promise ${entry.id}: no test file ${test.file}`);
        continue;
      }
      if (!titleCache.has(test.file)) titleCache.set(test.file, testTitlesOf(readFileSync(path, 'utf8')));
      if (!titleCache.get(test.file).some((title) => title.test(test.name)))
        problems.push(`${test.at}: promise ${entry.id}: no test "${test.name}" in ${test.file}`);
    }
  }
  for (const [key, marker] of marked) {
    const [document, id] = key.split('#');
    if (!entries.some((entry) => entry.id === id && entry.document === document))
      problems.push(`${document}:${marker.line}: promise ${id} is marked but not in ${INDEX}`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
  const problems = checkPromises(root);
  const { entries } = parseIndex(existsSync(join(root, INDEX)) ? readFileSync(join(root, INDEX), 'utf8') : '');
  if (problems.length > 0) {
    console.error(`✖ promise index: ${problems.length} problem(s)`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  const tests = entries.reduce((total, entry) => total + entry.tests.length, 0);
  console.log(`✔ promise index: ${entries.length} promises, each with a test (${tests} tests named), all found`);
}
