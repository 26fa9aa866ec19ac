// `npm test`: type-check everything, then run every test file with Node's test runner on the pinned Node.
// Suites that need something the machine lacks report themselves as skipped with the reason, and
// the run ends by listing every skipped suite and test by name: a skip must not look like a pass.
// With FML_REQUIRE_ALL_SUITES=1 (set by .ci/run) the code-server, browser and storage-fault suites
// fail instead of skipping when their prerequisites are missing (test/support/prerequisites.ts).
import { spawnSync } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (label, command, args) => {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FML_TEST: '1' } });
  return result.status ?? 1;
};

const typecheck = run('type check (tsc --noEmit)', process.execPath, [
  'node_modules/typescript/bin/tsc',
  '-p',
  'tsconfig.json',
]);
if (typecheck !== 0) {
  console.error(`✖ type check failed (exit ${typecheck})`);
  process.exit(typecheck);
}

const only = process.argv.slice(2);
// The layering rules and floating promises (eslint.config.mjs): part of every full run; a run of
// selected files skips it to stay quick.
if (only.length === 0) {
  const lint = run('lint (eslint: layer zones, floating promises)', process.execPath, [
    'node_modules/eslint/bin/eslint.js',
    'src',
    'webview',
    'test',
    'bench',
  ]);
  if (lint !== 0) {
    console.error(`✖ lint failed (exit ${lint})`);
    process.exit(lint);
  }
}

// Every promise of README, SECURITY.md and RELIABILITY.md is in docs/promises.md with tests that
// exist (scripts/check-promises.mjs): checked before the tests run, in every run (it takes no time).
const promises = run('promise index (docs/promises.md)', process.execPath, ['scripts/check-promises.mjs']);
if (promises !== 0) {
  console.error(`✖ promise index check failed (exit ${promises})`);
  process.exit(promises);
}

const files = globSync('test/**/*.test.ts', { cwd: root }).sort();
const selected = only.length > 0 ? files.filter((file) => only.some((pattern) => file.includes(pattern))) : files;
// Node's runner given no file runs its default pattern, support servers included, which never exit:
// a selection that matches nothing is an error, not a run of everything.
if (selected.length === 0) {
  console.error(`✖ no test file path contains ${only.map((pattern) => `"${pattern}"`).join(' or ')}`);
  process.exit(1);
}
const reportDir = mkdtempSync(join(tmpdir(), 'fml-test-skips-'));
const skipReport = join(reportDir, 'skips.jsonl');
const durationReport = join(reportDir, 'durations.jsonl');
const status = run(`unit, contract and integration tests (${selected.length} files)`, process.execPath, [
  '--test',
  '--test-concurrency=2',
  '--test-timeout=120000',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${join(root, 'scripts', 'skipReporter.mjs')}`,
  `--test-reporter-destination=${skipReport}`,
  `--test-reporter=${join(root, 'scripts', 'durationReporter.mjs')}`,
  `--test-reporter-destination=${durationReport}`,
  ...selected,
]);

const skips = readFileSync(skipReport, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const perFile = new Map();
for (const line of readFileSync(durationReport, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const { file, ms } = JSON.parse(line);
  perFile.set(file, (perFile.get(file) ?? 0) + ms);
}
rmSync(reportDir, { recursive: true, force: true });
const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`\n▶ slowest files (their tests' time, start-up not counted; 2 files run at once):`);
for (const [file, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${relative(root, file)}`);
const suites = skips.filter((skip) => skip.kind === 'suite');
const tests = skips.filter((skip) => skip.kind !== 'suite');
console.log(`\n▶ skipped: ${suites.length} suite(s) (their tests are not counted above) and ${tests.length} test(s)`);
for (const skip of skips)
  console.log(`  ﹣ ${skip.kind} "${skip.name}" in ${relative(root, skip.file)}: ${skip.reason}`);
if (status !== 0) {
  console.error(`✖ tests failed (exit ${status})`);
  process.exit(status);
}
