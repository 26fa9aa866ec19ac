import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');

// The root tsconfig excludes webview/ (it needs the DOM library, the host code must not see it),
// so the panel's own project is checked here, together with the shared protocol it imports.
it('type-checks the webview against the DOM library and the shared protocol', () => {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'webview', 'tsconfig.json')],
    { encoding: 'utf8' },
  );
  assert.equal(result.status, 0, `tsc -p webview/tsconfig.json failed:\n${result.stdout}${result.stderr}`);
});
