import * as vscode from 'vscode';
import type { Log } from '../log.ts';
import { MCP_PROVIDER_LABEL } from './mcpIds.ts';
import type { EndpointInfo, MemoryEndpoint } from './memoryEndpoint.ts';

/** Cursor's extension API (docs.cursor.com "MCP extension API"); absent in VS Code and other forks. */
interface CursorMcpApi {
  registerServer(config: { name: string; server: { url: string; headers?: Record<string, string> } }): void;
  unregisterServer(name: string): void;
}

function cursorMcp(): CursorMcpApi | undefined {
  const candidate = (vscode as unknown as { cursor?: { mcp?: Partial<CursorMcpApi> } }).cursor?.mcp;
  return typeof candidate?.registerServer === 'function' && typeof candidate.unregisterServer === 'function'
    ? (candidate as CursorMcpApi)
    : undefined;
}

/**
 * Cursor ignores registerMcpServerDefinitionProvider, so in Cursor the endpoint is started at once
 * and registered through Cursor's own API, and re-registered with the new URL and token after a restart.
 */
export function registerWithCursor(endpoint: MemoryEndpoint, log: Log): vscode.Disposable {
  const api = cursorMcp();
  if (!api) return new vscode.Disposable(() => undefined);
  const register = (info: EndpointInfo): void => {
    api.registerServer({
      name: MCP_PROVIDER_LABEL,
      server: { url: info.mcpUrl, headers: { Authorization: `Bearer ${info.token}` } },
    });
    log.info(`Registered the MCP server with Cursor at ${info.mcpUrl}.`);
  };
  const start = (): void => {
    endpoint.ensureStarted().catch((error: unknown) => log.error('Cannot start the MCP server for Cursor', error));
  };
  const subscriptions = [endpoint.onDidStart(register), endpoint.onDidStop(start)];
  start();
  return new vscode.Disposable(() => {
    for (const subscription of subscriptions) subscription.dispose();
    api.unregisterServer(MCP_PROVIDER_LABEL);
  });
}
