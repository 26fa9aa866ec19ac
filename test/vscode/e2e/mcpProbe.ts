import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the extension writes for the suite when FML_E2E=1 (src/vscode/e2eProbe.ts). */
export interface ExtensionState {
  backend: string;
  userId: string;
  projectId: string | null;
  sessionId: string;
  dataDir: string;
  activateMs: number;
  storeReadyMs: number;
  mcpUrl?: string;
  token?: string;
  resolvedByEditor?: number;
}

export function readState(probeDir: string): ExtensionState | null {
  try {
    return JSON.parse(readFileSync(join(probeDir, 'extension-state.json'), 'utf8')) as ExtensionState;
  } catch (error) {
    // Not written yet, or caught mid-write: the caller polls.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return null;
    throw error;
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
}

/** An MCP client on the extension's own HTTP endpoint, as Copilot would use it. */
export async function connectMcp(state: ExtensionState): Promise<{
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}> {
  if (!state.mcpUrl || !state.token) throw new Error('The extension has not started its MCP endpoint.');
  const client = new Client({ name: 'fml-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(state.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${state.token}` } },
    }),
  );
  return {
    client,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}
