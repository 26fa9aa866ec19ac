import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineStdioTransport } from '../../src/mcp/stdioTransport.ts';

/**
 * A stdio transport on in-memory streams: what it delivers to the server, what it writes back (one
 * parsed answer a line), and `until`, which waits for the transport to deliver or write what a check expects.
 */
export async function stdioHarness() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineStdioTransport(input, output);
  const delivered: JSONRPCMessage[] = [];
  transport.onmessage = (message) => delivered.push(message);
  await transport.start();
  const written: Array<{ id: unknown; error?: { code: number } }> = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      written.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
  });
  const until = async (check: () => boolean): Promise<void> => {
    while (!check()) await Promise.race([once(output, 'data'), new Promise((resolve) => setImmediate(resolve))]);
  };
  return { input, output, transport, delivered, written, until };
}
