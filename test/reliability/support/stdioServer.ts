import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
export const CLI = join(root, 'dist', 'cli.js');

export interface ToolAnswer {
  ok: boolean;
  output?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/**
 * The built CLI as a stdio MCP server, driven with raw newline-delimited JSON-RPC so a test can
 * count exactly which calls were answered before it kills the process.
 */
export class StdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();
  private nextId = 1;
  private buffer = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(dataDir: string, options: { uid?: number; gid?: number; env?: Record<string, string> } = {}) {
    this.child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none', ...options.env },
      ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    // A killed server must not fail the test through EPIPE on a write still in flight.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  async initialize(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'reliability', version: '1' },
    });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const message = (await this.request('tools/call', { name, arguments: args })) as {
      result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: Array<{ text?: string }> };
      error?: { message: string };
    };
    if (message.error) return { ok: false, error: { code: 'JSONRPC', message: message.error.message } };
    if (message.result?.isError) {
      const text = message.result.content?.[0]?.text ?? '';
      const json = text.slice(text.indexOf('\n') + 1);
      return {
        ok: false,
        error: json.startsWith('{')
          ? (JSON.parse(json) as { error: { code: string; message: string } }).error
          : { code: 'UNTYPED', message: text },
      };
    }
    return { ok: true, output: message.result?.structuredContent ?? {} };
  }

  request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, resolve);
      void this.exited.then(({ code, signal }) =>
        reject(new Error(`server exited (${code ?? signal}) before answering ${method}: ${this.stderr.slice(-500)}`)),
      );
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  kill(signal: NodeJS.Signals): Promise<unknown> {
    this.child.kill(signal);
    return this.exited;
  }

  private onData(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.startsWith('{')) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      const resolve = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (resolve) {
        this.pending.delete(message.id as number);
        resolve(message);
      }
    }
  }
}
