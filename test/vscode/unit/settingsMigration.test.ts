import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeMigration,
  migrateLegacySettings,
  type SettingsScope,
} from '../../../src/vscode/config/settingsMigration.ts';

/** A settings file as a plain map, recording every write in order. */
function fakeScope(
  level: SettingsScope['level'],
  label: string,
  initial: Record<string, unknown>,
  failOn?: string,
): SettingsScope & { file: Record<string, unknown>; writes: string[] } {
  const file = { ...initial };
  const writes: string[] = [];
  return {
    level,
    label,
    file,
    writes,
    valueOf: (id) => file[id],
    write: async (id, value) => {
      if (id === failOn) throw new Error('the file is read-only');
      writes.push(`${value === undefined ? 'remove' : 'set'} ${id}`);
      if (value === undefined) delete file[id];
      else file[id] = value;
    },
  };
}

test('old memory.* values move to fireboltMemory.* in the user, workspace and folder files', async () => {
  const user = fakeScope('user', 'user settings', {
    'memory.user.id': 'ada',
    'memory.storage.backend': 'firebolt-core',
    'editor.fontSize': 13,
  });
  const workspace = fakeScope('workspace', 'workspace settings', { 'memory.capture.exclude': ['**/fixtures/**'] });
  const folder = fakeScope('workspaceFolder', 'folder api', { 'memory.scope': 'all' });
  const result = await migrateLegacySettings([user, workspace, folder]);

  assert.deepEqual(user.file, {
    'fireboltMemory.user.id': 'ada',
    'fireboltMemory.storage.backend': 'firebolt-core',
    'editor.fontSize': 13,
  });
  assert.deepEqual(workspace.file, { 'fireboltMemory.capture.exclude': ['**/fixtures/**'] });
  assert.deepEqual(folder.file, { 'fireboltMemory.scope': 'all' });
  assert.deepEqual(result.failures, []);
  assert.deepEqual(
    result.migrated.map((entry) => `${entry.scope}: ${entry.from} -> ${entry.to} (${entry.outcome})`),
    [
      'user settings: memory.user.id -> fireboltMemory.user.id (copied)',
      'user settings: memory.storage.backend -> fireboltMemory.storage.backend (copied)',
      'workspace settings: memory.capture.exclude -> fireboltMemory.capture.exclude (copied)',
      'folder api: memory.scope -> fireboltMemory.scope (copied)',
    ],
  );
  // The copy is written before the old entry is removed, so a crash in between loses nothing.
  assert.deepEqual(user.writes.slice(0, 2), ['set fireboltMemory.user.id', 'remove memory.user.id']);
});

test('a value already set under the new prefix wins; the old entry is only removed', async () => {
  const user = fakeScope('user', 'user settings', {
    'memory.workingMemory.maxTokens': 4000,
    'fireboltMemory.workingMemory.maxTokens': 12000,
  });
  const { migrated } = await migrateLegacySettings([user]);
  assert.deepEqual(user.file, { 'fireboltMemory.workingMemory.maxTokens': 12000 });
  assert.equal(migrated[0]?.outcome, 'superseded');
  assert.equal(
    describeMigration(migrated[0]!),
    'Setting memory.workingMemory.maxTokens removed from user settings: fireboltMemory.workingMemory.maxTokens is already set there and is kept.',
  );
});

test('a second activation finds nothing to migrate and writes nothing', async () => {
  const user = fakeScope('user', 'user settings', { 'memory.capture.git': false });
  await migrateLegacySettings([user]);
  const again = await migrateLegacySettings([user]);
  assert.deepEqual(again, { migrated: [], failures: [] });
  assert.deepEqual(user.writes, ['set fireboltMemory.capture.git', 'remove memory.capture.git']);
  assert.equal(user.file['fireboltMemory.capture.git'], false, 'false is a value, not "unset"');
});

test('settings the extension never declared are left alone, even under memory.*', async () => {
  const user = fakeScope('user', 'user settings', {
    'memory.somethingElse': 1,
    'memory.embeddings.apiKey': 'not a setting',
  });
  const { migrated } = await migrateLegacySettings([user]);
  assert.deepEqual(migrated, []);
  assert.deepEqual(user.file, { 'memory.somethingElse': 1, 'memory.embeddings.apiKey': 'not a setting' });
});

test('a write that fails is reported with a code and leaves the old value in place', async () => {
  const workspace = fakeScope(
    'workspace',
    'workspace settings',
    { 'memory.scope': 'all', 'memory.capture.git': false },
    'fireboltMemory.scope',
  );
  const { migrated, failures } = await migrateLegacySettings([workspace]);
  assert.equal(failures.length, 1);
  assert.equal(failures[0]!.code, 'CONFIGURATION_ERROR');
  assert.match(
    failures[0]!.message,
    /Cannot move memory\.scope to fireboltMemory\.scope in workspace settings: the file is read-only/,
  );
  assert.equal(workspace.file['memory.scope'], 'all');
  assert.deepEqual(
    migrated.map((entry) => entry.from),
    ['memory.capture.git'],
    'the other settings still move',
  );
});

test('an application setting found in workspace settings is dropped there, never written where the editor refuses it', async () => {
  const workspace = fakeScope(
    'workspace',
    'workspace settings',
    { 'memory.user.id': 'ada', 'memory.scope': 'all' },
    'fireboltMemory.user.id',
  );
  const { migrated, failures } = await migrateLegacySettings([workspace]);
  assert.deepEqual(failures, []);
  assert.deepEqual(workspace.file, { 'fireboltMemory.scope': 'all' });
  assert.equal(
    describeMigration(migrated[0]!),
    'Setting memory.user.id removed from workspace settings, where it had no effect: set fireboltMemory.user.id in your user settings.',
  );
});
