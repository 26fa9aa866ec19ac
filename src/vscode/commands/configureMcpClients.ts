import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import {
  bridgeEntry,
  claudeCodeCommand,
  type ClientId,
  mergeServerEntry,
  CLIENT_CONFIG_SERVER_KEY,
  userConfigPath,
} from '../mcp/clientConfigs.ts';
import { prepareBridge } from '../mcp/stdioBridge.ts';
import type { CommandDeps } from './commandDeps.ts';
import { offer } from './feedback.ts';

type Choice = ClientId | 'show';

/**
 * Writes (after confirmation) the user-scope configuration of Claude Desktop, Cursor or Windsurf,
 * prints the `claude mcp add` command for Claude Code, or shows the JSON for any other client.
 */
export async function configureMcpClientsCommand(deps: CommandDeps, preselected?: Choice): Promise<string | undefined> {
  const picked =
    preselected ??
    (
      await vscode.window.showQuickPick(
        [
          { label: 'Claude Desktop', description: 'writes claude_desktop_config.json', id: 'claude-desktop' as const },
          { label: 'Claude Code', description: 'copies a `claude mcp add` command', id: 'claude-code' as const },
          {
            label: 'Cursor',
            description: 'writes ~/.cursor/mcp.json (inside Cursor this extension registers itself)',
            id: 'cursor' as const,
          },
          { label: 'Windsurf', description: 'writes ~/.codeium/windsurf/mcp_config.json', id: 'windsurf' as const },
          { label: 'Other client…', description: 'show the stdio configuration JSON', id: 'show' as const },
        ],
        { title: 'Configure MCP for Other Clients', placeHolder: 'Which client should share this memory?' },
      )
    )?.id;
  if (!picked) return undefined;
  const ready = await deps.host.ready();
  // Workspace-bound clients get this project's scope; desktop apps see all of the user's projects.
  const spec = await prepareBridge(deps.context, ready, { withProject: picked === 'claude-code' || picked === 'show' });
  const entry = bridgeEntry(spec);

  if (picked === 'claude-code') {
    const command = claudeCodeCommand(entry);
    await vscode.env.clipboard.writeText(command);
    await showText(`# Run in this project's folder (copied to the clipboard):\n${command}\n`, 'shellscript');
    return command;
  }
  if (picked === 'show') {
    const json = JSON.stringify({ mcpServers: { [CLIENT_CONFIG_SERVER_KEY]: entry } }, null, 2);
    await showText(json, 'json');
    return json;
  }
  const path = userConfigPath(picked, process.platform, homedir(), process.env);
  if (!path) return undefined;
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const merged = mergeServerEntry(existing, entry);
  const confirm = await vscode.window.showInformationMessage(
    `Add the "${CLIENT_CONFIG_SERVER_KEY}" server to ${path}?`,
    {
      modal: true,
      detail: `The client will start:\n${entry.command} ${entry.args.join(' ')}\n\nOther entries in the file are kept. No token is written.`,
    },
    'Write Configuration',
  );
  if (confirm !== 'Write Configuration') return undefined;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, merged, { mode: 0o600 });
  deps.log.info(`Wrote the ${CLIENT_CONFIG_SERVER_KEY} MCP server to ${path}.`);
  offer(deps.log, `Configured ${picked}: restart it (Windsurf: refresh its MCP panel) to load the memory server.`, {
    label: 'Open File',
    run: () => vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true }),
  });
  return path;
}

async function showText(content: string, language: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language, content });
  await vscode.window.showTextDocument(document, { preview: true });
}
