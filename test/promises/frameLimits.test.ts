import assert from 'node:assert/strict';

import { describe, it } from 'node:test';

import { MAX_FRAME_CHARS, MAX_UNAUTHENTICATED_FRAME_CHARS } from '../../src/daemon/clientFrame.ts';
import { FrameError, FrameReader } from '../../src/daemon/frameReader.ts';
import { MAX_STDIO_LINE_BYTES } from '../../src/mcp/stdioTransport.ts';
import { stdioHarness } from '../support/stdioHarness.ts';

/**
 * The line limits of SECURITY.md ("Malformed or oversized protocol input": a stdio line over 8 MB
 * is dropped with -32600; "A stray or hostile line on the memory process's socket": 16 KB before
 * hello, 8 MB after) at their edge, and however the line is cut into chunks: a line of exactly the
 * limit is read, one byte more is refused, also when its newline arrives in the same chunk as the
 * bytes that take it past the limit (the check on buffered bytes alone never sees those).
 */

/** A JSON value of exactly `size` characters (ASCII, so bytes too): a ping padded with spaces. */
function paddedPing(id: number, size: number): string {
  const ping = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
  return ping + ' '.repeat(size - ping.length);
}

/** How a line reaches the reader: whole with its newline, or in pieces with the newline in the last. */
const DELIVERIES: ReadonlyArray<[string, (line: string) => string[]]> = [
  ['in one chunk with its newline', (line) => [`${line}\n`]],
  [
    'in two chunks, the newline with the bytes that pass the limit',
    (line) => [line.slice(0, -10), `${line.slice(-10)}\n`],
  ],
  ['in chunks with the newline alone at the end', (line) => [line.slice(0, 1000), line.slice(1000), '\n']],
];

describe('a stdio line of exactly 8 MB is read, one byte more is dropped with -32600', () => {
  for (const [how, cut] of DELIVERIES) {
    it(`a line of exactly the limit, ${how}, is delivered`, async () => {
      const { input, transport, delivered, written, until } = await stdioHarness();
      for (const chunk of cut(paddedPing(1, MAX_STDIO_LINE_BYTES))) input.write(chunk);
      input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
      await until(() => delivered.length === 2);
      assert.deepEqual(
        delivered.map((message) => (message as { id: number }).id),
        [1, 2],
      );
      assert.deepEqual(written, []);
      await transport.close();
    });

    it(`a line one byte over the limit, ${how}, is dropped with -32600 and the next line is read`, async () => {
      const { input, transport, delivered, written, until } = await stdioHarness();
      for (const chunk of cut(paddedPing(1, MAX_STDIO_LINE_BYTES + 1))) input.write(chunk);
      input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
      // The next line is read in both cases; by then the oversized one was answered or delivered.
      await until(() => delivered.some((message) => (message as { id: number }).id === 2));
      assert.equal(written.length, 1, 'the oversized line is answered');
      assert.equal(written[0]!.error?.code, -32600);
      assert.equal(written[0]!.id, null);
      assert.deepEqual(
        delivered.map((message) => (message as { id: number }).id),
        [2],
      );
      await transport.close();
    });
  }
});

describe('a memory-process frame of exactly its limit is read, one character more is FRAME_TOO_LARGE', () => {
  for (const [limitName, limit] of [
    ['before hello (16 KB)', MAX_UNAUTHENTICATED_FRAME_CHARS],
    ['after hello (8 MB)', MAX_FRAME_CHARS],
  ] as const) {
    for (const [how, cut] of DELIVERIES) {
      it(`${limitName}: exactly the limit, ${how}, is one frame`, () => {
        const frames: unknown[] = [];
        const reader = new FrameReader(
          (frame) => frames.push(frame),
          () => limit,
        );
        for (const chunk of cut(paddedPing(1, limit))) reader.push(chunk);
        assert.deepEqual(frames, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
      });

      it(`${limitName}: one character over, ${how}, is refused before it is parsed`, () => {
        const frames: unknown[] = [];
        const reader = new FrameReader(
          (frame) => frames.push(frame),
          () => limit,
        );
        assert.throws(
          () => {
            for (const chunk of cut(paddedPing(1, limit + 1))) reader.push(chunk);
          },
          (error: unknown) => error instanceof FrameError && error.code === 'FRAME_TOO_LARGE',
        );
        assert.deepEqual(frames, []);
      });
    }
  }
});
