// `npm test`: type-check everything, then run every test file with Node's test runner on the pinned Node.
// Suites that need external servers (a real Firebolt) report themselves as skipped when not configured.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const step = (label, command, args) => {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FML_TEST: '1' } });
  if (result.status !== 0) {
    console.error(`✖ ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
};

step('type check (tsc --noEmit)', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
const files = globSync('test/**/*.test.ts', { cwd: root }).sort();
const only = process.argv.slice(2);
const selected = only.length > 0 ? files.filter((file) => only.some((pattern) => file.includes(pattern))) : files;
step(`unit, contract and integration tests (${selected.length} files)`, process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=120000', ...selected]);
