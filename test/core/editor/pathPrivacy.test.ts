import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGlob, isSensitivePath, PathFilter } from '../../../src/core/editor/pathPrivacy.ts';

test('credential files are refused by name', () => {
  for (const path of [
    '.env',
    'app/.env.local',
    'certs/server.pem',
    'tls.key',
    '/home/me/.ssh/config',
    'id_rsa',
    'id_ed25519.pub',
    '.npmrc',
    'secrets.yaml',
    'gcp/service-account-prod.json',
  ]) {
    assert.equal(isSensitivePath(path), true, path);
  }
  for (const path of ['src/env.ts', 'README.md', 'keyboard.ts', 'docs/keys.md', 'environment.yml']) {
    assert.equal(isSensitivePath(path), false, path);
  }
});

test('globs follow files.exclude semantics', () => {
  assert.equal(compileGlob('**/node_modules')('a/node_modules/x/y.js'), true);
  assert.equal(compileGlob('node_modules')('a/node_modules/x.js'), true);
  assert.equal(compileGlob('**/*.{log,tmp}')('out/run.log'), true);
  assert.equal(compileGlob('**/*.{log,tmp}')('out/run.txt'), false);
  assert.equal(compileGlob('build/**')('build/a/b.js'), true);
  assert.equal(compileGlob('build/**')('src/build/a.js'), false);
  assert.equal(compileGlob('src/*.ts')('src/a.ts'), true);
  assert.equal(compileGlob('src/*.ts')('src/deep/a.ts'), false);
  assert.equal(compileGlob('**/.DS_Store')('.DS_Store'), true);
  assert.equal(compileGlob('secret?.txt')('dir/secret1.txt'), true);
});

test('PathFilter combines user globs with the built-in refusals', () => {
  const filter = new PathFilter(['**/generated/**', '', 'private']);
  assert.equal(filter.allows('src/main.ts'), true);
  assert.equal(filter.allows('src/generated/api.ts'), false);
  assert.equal(filter.allows('private/notes.md'), false);
  assert.equal(filter.allows('config/.env.production'), false);
  assert.equal(filter.allows('notes.md', '/home/me/.aws/notes.md'), false);
});
