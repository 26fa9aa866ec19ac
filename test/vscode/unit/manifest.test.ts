import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { settingId } from '../../../src/core/domain/settingIds.ts';
import { CHAT_COMMANDS } from '../../../src/chat/memoryChat.ts';
import { CHAT_PARTICIPANT_ID } from '../../../src/vscode/chat/chatIds.ts';
import { COMMANDS } from '../../../src/vscode/commands/commandIds.ts';
import { readSetting, SETTING_KEYS, SETTINGS } from '../../../src/vscode/config/settings.ts';
import { MCP_PROVIDER_ID } from '../../../src/vscode/mcp/mcpIds.ts';
import { extensionManifest } from '../tools/manifest.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as Record<string, any>;
const FIX = 'run: node_modules/.bin/node test/vscode/tools/syncManifest.ts';

test('package.json carries the manifest generated from the code registries', () => {
  const expected = extensionManifest(pkg.contributes);
  for (const [key, value] of Object.entries(expected))
    assert.deepEqual(pkg[key], value, `package.json "${key}" is out of date; ${FIX}`);
});

test('every setting is declared once in code and in package.json, with the same default', () => {
  const properties = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;
  assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map(settingId).sort());
  for (const key of SETTING_KEYS) assert.deepEqual(properties[settingId(key)].default, SETTINGS[key].default, key);
});

test('no secret is a setting', () => {
  for (const key of SETTING_KEYS)
    assert.doesNotMatch(key, /secret|apikey|api_key|password|\.token$|bearer/i, `${key} must live in SecretStorage`);
});

test('every command of the typed map is contributed under the Memory category', () => {
  const contributed = (pkg.contributes.commands as Array<{ command: string; category: string }>)
    .map((entry) => entry.command)
    .sort();
  assert.deepEqual(contributed, Object.keys(COMMANDS).sort());
  assert.ok((pkg.contributes.commands as Array<{ category: string }>).every((entry) => entry.category === 'Memory'));
});

test('the MCP provider, the panel view and a light activation are declared', () => {
  assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'Firebolt Memory' }]);
  assert.match(pkg.engines.vscode, /^\^1\.(1\d\d|10[1-9])/);
  assert.deepEqual(pkg.activationEvents, ['onStartupFinished']);
  assert.equal(pkg.contributes.views.memory[0].id, 'memory.panel');
  assert.equal(pkg.main, './dist/extension.js');
});

test('the @memory chat participant is declared with exactly the commands its handler serves', () => {
  const [participant] = pkg.contributes.chatParticipants as Array<{
    id: string;
    name: string;
    commands: Array<{ name: string; description: string }>;
  }>;
  assert.equal(participant.id, CHAT_PARTICIPANT_ID);
  assert.equal(participant.name, 'memory');
  assert.deepEqual(
    participant.commands.map((command) => command.name),
    [...CHAT_COMMANDS],
  );
  assert.ok(participant.commands.every((command) => command.description.length > 10));
});

test('walkthrough media files exist', () => {
  for (const step of pkg.contributes.walkthroughs[0].steps as Array<{ media: { markdown: string } }>) {
    assert.ok(
      readFileSync(new URL(`../../../${step.media.markdown}`, import.meta.url), 'utf8').length > 100,
      step.media.markdown,
    );
  }
});

test('readSetting falls back to the declared default on a wrongly typed value and clamps numbers', () => {
  const values: Record<string, unknown> = {
    'fireboltMemory.scope': 'galaxy',
    'fireboltMemory.workingMemory.maxTokens': 10,
    'fireboltMemory.capture.exclude': ['a', 3],
    'fireboltMemory.capture.git': 'yes',
  };
  const get = (key: string): unknown => values[key];
  assert.equal(readSetting('scope', get), 'project');
  assert.equal(readSetting('workingMemory.maxTokens', get), 500);
  assert.deepEqual(readSetting('capture.exclude', get), ['a']);
  assert.equal(readSetting('capture.git', get), true);
  assert.equal(readSetting('user.id', get), '');
});

test("readSetting reads the setting under the extension's own prefix, not the old generic one", () => {
  const values: Record<string, unknown> = {
    'memory.workingMemory.maxTokens': 1000,
    'fireboltMemory.workingMemory.maxTokens': 3000,
  };
  assert.equal(
    readSetting('workingMemory.maxTokens', (key) => values[key]),
    3000,
  );
});

test("every setting is contributed under fireboltMemory.* with a description in the user's terms", () => {
  const properties = pkg.contributes.configuration.properties as Record<
    string,
    { description: string; enum?: string[]; enumDescriptions?: string[] }
  >;
  assert.equal(pkg.contributes.configuration.title, 'Firebolt Memory');
  for (const [id, schema] of Object.entries(properties)) {
    assert.match(id, /^fireboltMemory\.[a-zA-Z]+(\.[a-zA-Z]+)*$/, id);
    assert.doesNotMatch(
      schema.description,
      /\bseed\b|\bmemory\.[a-z]|checkpoint|lexical|BM25|RRF/i,
      `${id}: internal jargon in "${schema.description}"`,
    );
    assert.ok(schema.description.length >= 20, `${id}: describe what the setting does`);
    if (schema.enum)
      assert.equal(schema.enumDescriptions?.length, schema.enum.length, `${id}: every choice is described`);
  }
  for (const id of pkg.capabilities.untrustedWorkspaces.restrictedConfigurations as string[])
    assert.ok(id in properties, `restricted ${id} is a declared setting`);
});
