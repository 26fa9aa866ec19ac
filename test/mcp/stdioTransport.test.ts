import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { once } from 'node:events';

import { MAX_STDIO_LINE_BYTES } from '../../src/mcp/stdioTransport.ts';
import { stdioHarness } from '../support/stdioHarness.ts';

const harness = stdioHarness;

/** Waits until the transport has delivered or written what the check expects. */
async function until(check: () => boolean, stream: PassThrough): Promise<void> {
  while (!check()) await Promise.race([once(stream, 'data'), new Promise((resolve) => setImmediate(resolve))]);
}

describe('the line-delimited stdio transport', () => {
  it('delivers messages split across chunks and ending in CRLF', async () => {
    const { input, output, delivered, transport } = await harness();
    input.write('{"jsonrpc":"2.0","id":1,');
    input.write('"method":"ping"}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await until(() => delivered.length === 2, output);
    assert.deepEqual(
      delivered.map((message) => ('method' in message ? message.method : '')),
      ['ping', 'notifications/initialized'],
    );
    await transport.close();
  });

  it('drops a line over the size limit with -32600 and reads the next one', async () => {
    const { input, output, delivered, written, transport } = await harness();
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let sent = 0; sent <= MAX_STDIO_LINE_BYTES; sent += chunk.length) input.write(chunk);
    input.write('tail of the long line\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await until(() => delivered.length === 1 && written.length === 1, output);
    assert.equal(written[0]!.error?.code, -32600);
    assert.equal(written[0]!.id, null);
    assert.equal((delivered[0] as { id: number }).id, 2);
    await transport.close();
  });
});
