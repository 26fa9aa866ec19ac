// Makes `npm start`, `npm test` and the benchmarks work as the first command on a fresh clone:
// installs the locked dependencies when they are missing or stale, then builds when sources are newer than the bundles.
// Runs on whatever Node starts it (the system Node before the pinned one is installed), so it uses no newer APIs.
import { execSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit', env: process.env });

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

function newestIn(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const installedStamp = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installedStamp) || mtime(join(root, 'package-lock.json')) > mtime(installedStamp)) {
  // First run on a fresh clone: one line says what happens; npm's own warnings (the system Node is
  // older than the pinned one it is about to install, install scripts not yet approved) are not
  // failures and would be the first thing a newcomer reads, so only npm's errors are shown.
  console.error('[fml] first run: installing the locked dependencies and the pinned Node 24 (npm ci, about a minute)…');
  run('npm ci --no-audit --no-fund --loglevel=error');
}

const builtStamp = join(root, 'dist', '.build-stamp');
const sourcesChanged = Math.max(
  newestIn(join(root, 'src')),
  newestIn(join(root, 'webview')),
  mtime(join(root, 'esbuild.mjs')),
  mtime(join(root, 'scripts', 'latin1Sources.mjs')),
  mtime(join(root, 'scripts', 'lazyRankTable.mjs')),
  mtime(join(root, 'package.json')),
);
if (!existsSync(builtStamp) || sourcesChanged > mtime(builtStamp)) {
  console.error('[fml] building (esbuild)…');
  // The pinned Node from node_modules runs the build, so the bundles target the runtime the tests use.
  run(`"${join(root, 'node_modules', '.bin', 'node')}" esbuild.mjs`);
}
