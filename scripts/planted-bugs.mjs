// `npm run test:planted [-- name…]`: plants each of issue 21's five bugs in a scratch copy of
// the project and runs the test files that must catch it. A bug is caught when at least one test
// fails with it planted, and the same files pass without it (so the failure is the bug's, not the
// machine's). The working tree is never edited: a copy in the temp directory is, with
// node_modules linked. Exit status 1 when a bug is not caught or its edit no longer applies.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Each bug: one exact text edit in one source file, and the test files expected to catch it. */
const BUGS = [
  {
    name: 'eviction',
    what: 'working-memory eviction stops one item late (`>=` → `>` in the eviction condition)',
    file: 'src/core/working/eviction.ts',
    find: 'if (freed >= tokensNeeded) break;',
    replace: 'if (freed > tokensNeeded) break;',
    tests: ['test/core/working/eviction.test.ts', 'test/core/working/evictionPriority.test.ts'],
  },
  {
    name: 'redaction',
    what: 'working memory stores the raw content while still reporting the redactions',
    file: 'src/core/working/workingMemory.ts',
    find: 'const content = guarded.content;',
    replace: 'const content = requireContent(input.content);',
    tests: ['test/promises/workingMemoryRedaction.test.ts', 'test/security/secretsNeverStored.test.ts'],
  },
  {
    name: 'hard-delete',
    what: "hard delete leaves the memory's search-index row (lexical_documents) in the SQLite store",
    file: 'src/stores/sqlite/memoryTables.ts',
    find: "sql.get('DELETE FROM lexical_documents WHERE memory_id = ?').run(memoryId);",
    replace: '',
    tests: [
      'test/promises/hardDelete.test.ts',
      'test/trust/erasureOnDisk.test.ts',
      'test/trust/erasureResilient.test.ts',
    ],
  },
  {
    name: 'decay',
    what: 'ranking ignores the decay factor',
    file: 'src/core/retrieval/relevance.ts',
    find: 'memory.importance * memory.decay_factor',
    replace: 'memory.importance',
    tests: ['test/promises/decayRanking.test.ts', 'test/core/retrieval/relevanceFactors.test.ts'],
  },
  {
    name: 'outbox-replay',
    what: 'outbox replay of an insert skips its "already there?" check (Firebolt duplicates)',
    file: 'src/stores/resilient/remoteApply.ts',
    find: 'if (mayExist && (await remote.getMemories(op.memory.user_id, [op.memory.memory_id])).length > 0) {',
    replace: 'if (false) {',
    tests: ['test/promises/outboxReplay.test.ts'],
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BUGS.some((bug) => bug.name === name));
if (unknown.length > 0) {
  console.error(`unknown bug(s): ${unknown.join(', ')}; known: ${BUGS.map((bug) => bug.name).join(', ')}`);
  process.exit(2);
}
const bugs = wanted.length > 0 ? BUGS.filter((bug) => wanted.includes(bug.name)) : BUGS;

/** Runs test files in `dir`; returns the exit status and the failing tests' "test at file:line" lines. */
function runTests(dir, files) {
  const result = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', ...files],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, FML_TEST: '1' }, maxBuffer: 64 * 1024 * 1024 },
  );
  const failing = result.stdout.split('✖ failing tests:')[1] ?? '';
  const lines = failing.split('\n').filter((line) => line.startsWith('test at '));
  return { status: result.status ?? 1, failing: [...new Set(lines.map((line) => line.slice('test at '.length)))] };
}

const scratch = mkdtempSync(join(tmpdir(), 'fml-planted-bugs-'));
let uncaught = 0;
try {
  cpSync(root, scratch, {
    recursive: true,
    filter: (source) => !/[/\\](\.git|node_modules|reports)$/.test(source),
  });
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  for (const bug of bugs) {
    const path = join(scratch, bug.file);
    const original = readFileSync(path, 'utf8');
    if (original.split(bug.find).length !== 2) {
      console.log(`✖ ${bug.name}: the edit no longer applies (${bug.file} must hold "${bug.find}" once)`);
      uncaught++;
      continue;
    }
    const clean = runTests(scratch, bug.tests);
    writeFileSync(path, original.replace(bug.find, bug.replace));
    let planted;
    try {
      planted = runTests(scratch, bug.tests);
    } finally {
      writeFileSync(path, original);
    }
    const caught = clean.status === 0 && planted.status !== 0 && planted.failing.length > 0;
    if (!caught) uncaught++;
    console.log(`${caught ? '✔' : '✖'} ${bug.name}: ${bug.what}`);
    if (clean.status !== 0) console.log(`    the tests fail without the bug too: ${clean.failing.join(', ')}`);
    console.log(`    ${planted.failing.length} failing test(s) with it planted`);
    for (const test of planted.failing) console.log(`      ${test}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(uncaught > 0 ? 1 : 0);
