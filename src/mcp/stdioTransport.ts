import { type Transport, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from './mcpSdk.ts';
import type { Readable, Writable } from 'node:stream';
import { RPC_INVALID_REQUEST, RPC_PARSE_ERROR } from './jsonRpcMessages.ts';

/** A line longer than this is refused rather than buffered without bound (the HTTP body limit is 1 MB). */
export const MAX_STDIO_LINE_BYTES = 8 * 1024 * 1024;

/**
 * MCP over stdio: one JSON-RPC message per line. Unlike the SDK's transport, which reports a bad
 * line to the server's error handler and answers nothing (leaving the client waiting), every line
 * that is not a message gets the JSON-RPC 2.0 answer: -32700 for text that is not JSON, -32600 for
 * JSON that is not a request, notification or response (a request without a method, a batch).
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The rest of an oversized line is dropped up to its newline. */
  private skipping = false;
  private started = false;

  constructor(input: Readable = process.stdin, output: Writable = process.stdout) {
    this.input = input;
    this.output = output;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('The stdio transport is already started.');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      const tail = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      // A line whose end arrives in the chunk that takes it past the limit is as oversized as one
      // still waiting for its end.
      if (this.pendingBytes + tail.length > MAX_STDIO_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.refuseOversized();
        continue;
      }
      const line = Buffer.concat([...this.pending, tail]).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      this.receive(line);
    }
    if (data.length === 0 || this.skipping) return;
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes > MAX_STDIO_LINE_BYTES) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.refuseOversized();
    }
  };

  private refuseOversized(): void {
    void this.reply(null, RPC_INVALID_REQUEST, `Message longer than ${MAX_STDIO_LINE_BYTES} bytes; it was dropped.`);
  }

  private receive(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      void this.reply(
        null,
        RPC_PARSE_ERROR,
        'Parse error: the line is not valid JSON. Send one JSON-RPC message per line.',
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    void this.reply(idOf(value), RPC_INVALID_REQUEST, invalidRequestMessage(value));
  }

  private async reply(id: RequestId | null, code: number, message: string): Promise<void> {
    try {
      await this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const flushed = this.output.write(`${line}\n`, (error) => {
        if (error) reject(error);
      });
      if (flushed) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

/** The id of an invalid request, when it has a usable one: the client can match the error to its call. */
function idOf(value: unknown): RequestId | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function invalidRequestMessage(value: unknown): string {
  if (Array.isArray(value))
    return 'Invalid Request: batches are not part of MCP over stdio; send one message per line.';
  if (value === null || typeof value !== 'object') return 'Invalid Request: a JSON-RPC message is an object.';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'Invalid Request: "jsonrpc" must be "2.0".';
  if (!('method' in message) && !('result' in message) && !('error' in message))
    return 'Invalid Request: a request needs a "method".';
  if ('method' in message && typeof message.method !== 'string') return 'Invalid Request: "method" must be a string.';
  return 'Invalid Request: not a JSON-RPC 2.0 request, notification or response.';
}
