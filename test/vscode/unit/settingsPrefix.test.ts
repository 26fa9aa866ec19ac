import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SETTING_KEYS } from '../../../src/vscode/config/settings.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** SecretStorage keys keep their old spelling on purpose (renaming them would lose stored secrets). */
const ALLOWED = new Set(['src/vscode/storage/secretKeys.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

test('no source reads a setting under the old memory.* prefix: every id is built from SETTINGS_SECTION', () => {
  const groups = [...new Set(SETTING_KEYS.map((key) => key.split('.')[0]))];
  const oldId = new RegExp(`['"\`]memory\\.(${groups.join('|')})\\b|getConfiguration\\(\\s*['"\`]memory['"\`]`);
  const offenders = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'webview'))]
    .map((path) => relative(ROOT, path))
    .filter((path) => !ALLOWED.has(path))
    .flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .map((line, index) => ({ path, line, index })),
    )
    .filter(({ line }) => oldId.test(line))
    .map(({ path, line, index }) => `${path}:${index + 1}: ${line.trim()}`);
  assert.deepEqual(offenders, []);
});
