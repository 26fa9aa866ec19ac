import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The built CLI's `fml serve --stdio` as its own process, with an SDK client over its stdin and
 * stdout: what an agent's MCP client talks to. `pid` is for reading the server's CPU from /proc
 * (serverProcess.ts), which costs it nothing.
 */
export async function connectStdioServer(
  cliPath: string,
  dataDir: string,
): Promise<{ client: Client; pid: number; close(): Promise<void> }> {
  if (!existsSync(cliPath))
    throw new Error(`${cliPath} does not exist: run \`npm run build\` first (--stdio runs the built CLI)`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--stdio', '--data-dir', dataDir],
    env: { ...(process.env as Record<string, string>), FML_EMBEDDING_PROVIDER: 'none' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'fml-bench-quality', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('the stdio server process has no pid: it did not start');
  return { client, pid, close: () => client.close() };
}
