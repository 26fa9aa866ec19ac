// `node scripts/mutation/retest.mjs <module> [text] [--after <earlier .retest.jsonl>]`: applies each mutant a module's last run left
// undetected (reports/mutation/<module>.json) to a copy of the checkout, one at a time, and runs the
// module's test files against it as one process, as StrykerJS would. A full run of a large module
// takes most of an hour on the shared machine; this re-tests only its survivors (1–3 s each), so
// tests written for them can be seen failing on each. `text` keeps the mutants whose key
// (equivalentMutants.mjs's mutantKey) contains it. Writes reports/mutation/<module>.retest.jsonl and
// prints, per mutant, whether the current tests kill it and, if not, its explanation or UNEXPLAINED.
// The source must be the one the run mutated (the locations are the run's).
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { EQUIVALENT_MUTANTS, mutantKey } from './equivalentMutants.mjs';
import { MUTATION_MODULES } from './modules.mjs';

// `--after <file>`: skip the mutants an earlier retest (its .retest.jsonl) found detected; tests
// were only added since, so they stay detected.
const args = process.argv.slice(2);
const afterAt = args.indexOf('--after');
const alreadyDetected = new Set(
  afterAt === -1
    ? []
    : readFileSync(args.splice(afterAt, 2)[1], 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.detected)
        .map((entry) => entry.at),
);
const [name, filter] = args;
const module = MUTATION_MODULES.find((entry) => entry.name === name);
if (!module) {
  console.error(
    `usage: retest.mjs <module> [text]; modules: ${MUTATION_MODULES.map((entry) => entry.name).join(', ')}`,
  );
  process.exit(2);
}
const root = new URL('../..', import.meta.url).pathname;
const report = JSON.parse(readFileSync(join(root, 'reports', 'mutation', `${name}.json`), 'utf8'));
const out = join(root, 'reports', 'mutation', `${name}.retest.jsonl`);
writeFileSync(out, '');

// Tracked and new files, without what git ignores (node_modules is linked, not copied).
const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
const sandbox = mkdtempSync(join(tmpdir(), `retest-${name}-`));
for (const file of listed.stdout.split('\n').filter(Boolean)) {
  try {
    mkdirSync(dirname(join(sandbox, file)), { recursive: true });
    copyFileSync(join(root, file), join(sandbox, file));
  } catch (error) {
    if (error.code !== 'ENOENT') throw error; // deleted in the work tree, still in the index
  }
}
symlinkSync(join(root, 'node_modules'), join(sandbox, 'node_modules'));
const tests = module.tests.flat().flatMap((pattern) => globSync(pattern, { cwd: root }).sort());
const entry = 'mutation-entry.retest.test.ts';
writeFileSync(join(sandbox, entry), tests.map((file) => `import './${file}';`).join('\n') + '\n');
const node = join(root, 'node_modules', '.bin', 'node');
const env = { ...process.env, FML_TEST: '1' };

let killed = 0;
let survived = 0;
const unexplained = [];
for (const [path, file] of Object.entries(report.files)) {
  const rel = relative(root, path.startsWith('/') ? path : join(root, path));
  const target = join(sandbox, rel);
  const original = readFileSync(target, 'utf8');
  if (original !== file.source) throw new Error(`${rel} changed since the run; its locations no longer apply`);
  const lineStarts = [0];
  for (let index = 0; index < original.length; index++) if (original[index] === '\n') lineStarts.push(index + 1);
  const offset = ({ line, column }) => lineStarts[line - 1] + column - 1;
  for (const mutant of file.mutants) {
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const key = mutantKey({
      file: rel,
      line: mutant.location.start.line,
      mutator: mutant.mutatorName,
      replacement: mutant.replacement ?? '',
    });
    if (filter && !key.includes(filter)) continue;
    // Keys can repeat (mutantKey cuts the replacement at 80 characters): the location tells mutants apart.
    const at = `${rel}:${mutant.location.start.line}:${mutant.location.start.column}:${mutant.mutatorName}:${mutant.replacement}`;
    if (alreadyDetected.has(at)) {
      killed++;
      continue;
    }
    const start = offset(mutant.location.start);
    const end = offset(mutant.location.end);
    writeFileSync(target, original.slice(0, start) + mutant.replacement + original.slice(end));
    const result = spawnSync(node, ['--test', '--test-reporter=spec', entry], {
      cwd: sandbox,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    writeFileSync(target, original);
    // A hang counts as detected, as StrykerJS counts a timeout.
    const detected = result.status !== 0;
    const failing = [...(result.stdout ?? '').matchAll(/^ *✖ (.+?)(?: \(\d[\d.]*m?s\))?$/gm)]
      .map((match) => match[1])
      .filter((title) => !title.startsWith('failing tests'));
    const reason = EQUIVALENT_MUTANTS[key];
    if (detected) killed++;
    else {
      survived++;
      if (!reason) unexplained.push(key);
    }
    appendFileSync(out, `${JSON.stringify({ key, at, was: mutant.status, detected, failing: failing.slice(0, 3) })}\n`);
    console.log(
      `${detected ? 'killed  ' : 'survived'} ${key}${detected ? ` ← ${failing[0] ?? `exit ${result.status ?? result.signal}`}` : ` — ${reason ?? 'UNEXPLAINED'}`}`,
    );
  }
}
rmSync(sandbox, { recursive: true, force: true });
console.log(
  `\n${killed} killed by the current tests, ${survived} still undetected (${unexplained.length} unexplained)`,
);
process.exit(unexplained.length > 0 ? 1 : 0);
