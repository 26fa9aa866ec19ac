import * as vscode from 'vscode';
import { toolSetVersion } from '../../mcp/createMcpServer.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import { MCP_PROVIDER_ID, MCP_PROVIDER_LABEL } from './mcpIds.ts';
import type { MemoryEndpoint } from './memoryEndpoint.ts';
import { settingId } from '../../core/domain/settingIds.ts';

/**
 * Makes the memory tools appear in Copilot agent mode with no configuration: one HTTP server
 * definition whose real URL and token are filled in when the editor starts it. The version is
 * the tool-set hash, so the editor refreshes its cached tool list exactly when tools change.
 */
export function registerMcpProvider(endpoint: MemoryEndpoint, log: Log, onResolved: () => void): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    // Called eagerly and must not start anything: the URL is a placeholder until resolve.
    provideMcpServerDefinitions: () => [
      new vscode.McpHttpServerDefinition(
        MCP_PROVIDER_LABEL,
        vscode.Uri.parse('http://127.0.0.1/mcp'),
        {},
        toolSetVersion({ adminTools: setting('mcp.adminTools') }),
      ),
    ],
    resolveMcpServerDefinition: async (definition) => {
      try {
        const { mcpUrl, token } = await endpoint.ensureStarted();
        definition.uri = vscode.Uri.parse(mcpUrl);
        definition.headers = { Authorization: `Bearer ${token}` };
        log.info(`The editor started the MCP server definition "${definition.label}" (${mcpUrl}).`);
        onResolved();
        return definition;
      } catch (error) {
        log.error('Cannot start the MCP server', error);
        // Undefined tells the editor not to start it; the error is already shown once.
        return undefined;
      }
    },
  };
  const registration = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  // A stopped endpoint means a stale URL and token: ask the editor to resolve again.
  const stopped = endpoint.onDidStop(() => changed.fire());
  // Opting in or out of the admin tools changes the tool set: restart the endpoint with the new one.
  const toolGroup = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(settingId('mcp.adminTools'))) void endpoint.stop();
  });
  return vscode.Disposable.from(registration, stopped, toolGroup, changed);
}
