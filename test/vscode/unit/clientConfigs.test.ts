import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bridgeEntry,
  claudeCodeCommand,
  mergeServerEntry,
  userConfigPath,
} from '../../../src/vscode/mcp/clientConfigs.ts';

const entry = bridgeEntry({
  nodePath: '/opt/Code/code',
  cliPath: '/home/me/.config/Code/User/globalStorage/x/bridge/fml-cli.cjs',
  dataDir: '/home/me/.config/Code/User/globalStorage/x',
  userId: 'user_1',
  projectId: 'git:github.com/a/b',
});

test("the bridge runs the CLI with the editor's node on the shared store, without a token", () => {
  assert.deepEqual(entry.args.slice(1), [
    'serve',
    '--stdio',
    '--data-dir',
    '/home/me/.config/Code/User/globalStorage/x',
    '--user',
    'user_1',
    '--project',
    'git:github.com/a/b',
  ]);
  assert.deepEqual(entry.env, { ELECTRON_RUN_AS_NODE: '1' });
  assert.doesNotMatch(JSON.stringify(entry), /token|bearer/i);
  const global = bridgeEntry({ nodePath: 'n', cliPath: 'c', dataDir: 'd', userId: 'u' });
  assert.ok(!global.args.includes('--project'));
});

test('config files per client and platform', () => {
  assert.equal(
    userConfigPath('claude-desktop', 'darwin', '/Users/me', {}),
    '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
  );
  assert.equal(
    userConfigPath('claude-desktop', 'linux', '/home/me', {}),
    '/home/me/.config/Claude/claude_desktop_config.json',
  );
  assert.equal(
    userConfigPath('claude-desktop', 'linux', '/home/me', { XDG_CONFIG_HOME: '/x' }),
    '/x/Claude/claude_desktop_config.json',
  );
  assert.equal(userConfigPath('cursor', 'linux', '/home/me', {}), '/home/me/.cursor/mcp.json');
  assert.equal(userConfigPath('windsurf', 'linux', '/home/me', {}), '/home/me/.codeium/windsurf/mcp_config.json');
  assert.equal(userConfigPath('claude-code', 'linux', '/home/me', {}), null);
});

test('merging keeps other servers and settings and replaces our entry', () => {
  const existing = JSON.stringify({
    theme: 'dark',
    mcpServers: { other: { command: 'x' }, 'firebolt-memory': { command: 'old' } },
  });
  const merged = JSON.parse(mergeServerEntry(existing, entry));
  assert.equal(merged.theme, 'dark');
  assert.deepEqual(merged.mcpServers.other, { command: 'x' });
  assert.deepEqual(merged.mcpServers['firebolt-memory'], entry);
  assert.deepEqual(Object.keys(JSON.parse(mergeServerEntry(null, entry)).mcpServers), ['firebolt-memory']);
});

test('a broken config file is refused, not overwritten', () => {
  assert.throws(() => mergeServerEntry('{ nope', entry), { code: 'CONFIGURATION_ERROR' });
  assert.throws(() => mergeServerEntry('[1]', entry), { code: 'CONFIGURATION_ERROR' });
});

test('the Claude Code command is shell-quoted and local-scoped', () => {
  const command = claudeCodeCommand(
    bridgeEntry({
      nodePath: '/Applications/Visual Studio Code.app/x',
      cliPath: '/c.cjs',
      dataDir: "/it's",
      userId: 'u',
    }),
  );
  assert.equal(
    command,
    "claude mcp add --scope local -e ELECTRON_RUN_AS_NODE=1 firebolt-memory -- '/Applications/Visual Studio Code.app/x' /c.cjs serve --stdio --data-dir '/it'\\''s' --user u",
  );
});
