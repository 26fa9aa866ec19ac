import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { readJsonBody } from '../../src/http/requestBody.ts';

const LIMIT = 64;

/** What readJsonBody made of each request, in arrival order: the value, or the error's code. */
type Outcome = { value: unknown } | { code: string };

describe('readJsonBody on real requests (raw sockets)', () => {
  let server: Server;
  let port: number;
  const outcomes: Array<Promise<Outcome>> = [];

  before(async () => {
    server = createServer((request, response) => {
      const outcome = readJsonBody(request, LIMIT).then(
        (value): Outcome => ({ value }),
        (error: unknown): Outcome => {
          assert.ok(MemoryError.is(error), `a typed error, got ${String(error)}`);
          return { code: error.code };
        },
      );
      outcomes.push(outcome);
      void outcome.then(() => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Writes `frames` to a fresh socket, a pause between each, then waits for the server's outcome. */
  async function post(frames: Array<string | Buffer>, { hangUp = false } = {}): Promise<Outcome> {
    const before = outcomes.length;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {
      // The server may answer and close first; the outcome below is what the test checks.
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    for (const frame of frames) {
      socket.write(frame);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    if (hangUp) socket.destroy();
    while (outcomes.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const outcome = await outcomes[before];
    socket.destroy();
    return outcome;
  }

  const head = (length: number | 'chunked'): string =>
    length === 'chunked'
      ? 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
      : `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;
  const chunk = (text: string | Buffer): Buffer => {
    const bytes = Buffer.from(text);
    return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
  };

  it('parses a body sent in one frame', async () => {
    const body = '{"a":1}';
    assert.deepEqual(await post([head(body.length) + body]), { value: { a: 1 } });
  });

  it('parses a body split across frames, a multi-byte character cut in two', async () => {
    const bytes = Buffer.from('{"word":"naïve"}');
    const cut = bytes.indexOf(0xc3) + 1;
    assert.deepEqual(
      await post([head('chunked'), chunk(bytes.subarray(0, cut)), chunk(bytes.subarray(cut)), '0\r\n\r\n']),
      {
        value: { word: 'naïve' },
      },
    );
  });

  it('reads an empty body as undefined', async () => {
    assert.deepEqual(await post([head(0)]), { value: undefined });
  });

  it('refuses a declared length past the limit before reading', async () => {
    assert.deepEqual(await post([head(LIMIT + 1)]), { code: 'CONTENT_TOO_LONG' });
  });

  it('refuses a chunked body once it grows past the limit, at limit + 1 bytes', async () => {
    const exact = `"${'x'.repeat(LIMIT - 2)}"`;
    assert.deepEqual(await post([head('chunked'), chunk(exact), '0\r\n\r\n']), { value: 'x'.repeat(LIMIT - 2) });
    assert.deepEqual(await post([head('chunked'), chunk(exact), chunk(' ')]), { code: 'CONTENT_TOO_LONG' });
  });

  it('refuses a body that is not JSON', async () => {
    assert.deepEqual(await post([`${head(5)}{"a":`]), { code: 'INVALID_INPUT' });
  });

  it('settles when the client hangs up mid-body, instead of waiting forever', async () => {
    assert.deepEqual(await post([`${head(40)}{"a":`], { hangUp: true }), { code: 'INVALID_INPUT' });
  });
});
