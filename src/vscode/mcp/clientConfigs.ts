import { join } from 'node:path';
import { MemoryError } from '../../core/domain/errors.ts';

/**
 * Configuration other MCP clients need to reach the same memory store through the stdio bridge.
 * Pure (no `vscode`): paths and JSON are computed from the platform, home and environment.
 * No token appears anywhere: the bridge opens the store directly.
 */

export type ClientId = 'claude-desktop' | 'claude-code' | 'cursor' | 'windsurf';

export interface StdioEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface BridgeSpec {
  /** Node to run the bridge with: the editor's own binary with ELECTRON_RUN_AS_NODE, or a system node. */
  nodePath: string;
  cliPath: string;
  dataDir: string;
  userId: string;
  /** Omitted for clients that are not tied to one workspace (they see all of the user's projects). */
  projectId?: string;
}

/** The key the server is entered under in MCP clients' configuration (`mcpServers.<key>`, `claude mcp add <key>`). */
export const CLIENT_CONFIG_SERVER_KEY = 'firebolt-memory';

export function bridgeEntry(spec: BridgeSpec): StdioEntry {
  return {
    command: spec.nodePath,
    args: [
      spec.cliPath,
      'serve',
      '--stdio',
      '--data-dir',
      spec.dataDir,
      '--user',
      spec.userId,
      ...(spec.projectId ? ['--project', spec.projectId] : []),
    ],
    // Without it the editor's Electron binary would start a GUI instead of running the script.
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/** The user-scope configuration file a client reads, or null when the client is configured by command. */
export function userConfigPath(
  client: ClientId,
  platform: NodeJS.Platform,
  home: string,
  env: Record<string, string | undefined>,
): string | null {
  switch (client) {
    case 'claude-desktop':
      if (platform === 'darwin')
        return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (platform === 'win32')
        return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'windsurf':
      return join(home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'claude-code':
      return null;
  }
}

/**
 * Adds (or replaces) the server entry under `mcpServers`, keeping everything else in the file.
 * Refuses to touch a file that is not a JSON object rather than overwrite the user's configuration.
 */
export function mergeServerEntry(existing: string | null, entry: StdioEntry, name = CLIENT_CONFIG_SERVER_KEY): string {
  let config: Record<string, unknown> = {};
  if (existing !== null && existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (cause) {
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        'The existing configuration file is not valid JSON; fix or remove it first.',
        { cause },
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        'The existing configuration file is not a JSON object; fix or remove it first.',
      );
    }
    config = parsed as Record<string, unknown>;
  }
  const servers =
    typeof config.mcpServers === 'object' && config.mcpServers !== null
      ? (config.mcpServers as Record<string, unknown>)
      : {};
  return `${JSON.stringify({ ...config, mcpServers: { ...servers, [name]: entry } }, null, 2)}\n`;
}

/** `claude mcp add` for Claude Code, local scope: private to this project and not checked in. */
export function claudeCodeCommand(entry: StdioEntry, name = CLIENT_CONFIG_SERVER_KEY): string {
  const quote = (value: string): string =>
    /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
  const env = Object.entries(entry.env).map(([key, value]) => `-e ${key}=${quote(value)}`);
  return ['claude mcp add --scope local', ...env, name, '--', quote(entry.command), ...entry.args.map(quote)].join(' ');
}
