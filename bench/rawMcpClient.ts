import { Agent, request } from 'node:http';

/**
 * A minimal Streamable HTTP MCP client speaking raw JSON-RPC over keep-alive sockets. The SDK
 * client costs several times more CPU per call, and the load generator shares the cores with the
 * server it measures, so the benchmark and the multi-process tests talk to the server directly.
 */
export interface RawCallResult {
  ok: boolean;
  /** structuredContent on success. */
  output?: Record<string, unknown>;
  /** The typed tool error, or the HTTP/JSON-RPC error, on failure. */
  error?: { code: string; message: string };
  status: number;
  /** Size of the response body, to see what a tool's answers cost on the wire. */
  bytes: number;
}

export class RawMcpSession {
  private readonly url: URL;
  private readonly token: string;
  private readonly agent: Agent;
  private sessionId: string | null = null;
  private nextId = 1;

  constructor(mcpUrl: string, token: string, agent: Agent) {
    this.url = new URL(mcpUrl);
    this.token = token;
    this.agent = agent;
  }

  /** initialize + notifications/initialized, as every MCP client does before calling tools. */
  async open(): Promise<void> {
    const init = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fml-raw', version: '1' } },
    });
    if (init.status !== 200 || !init.sessionId)
      throw new Error(`initialize failed: HTTP ${init.status} ${init.body.slice(0, 200)}`);
    this.sessionId = init.sessionId;
    const notified = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (notified.status !== 202) throw new Error(`notifications/initialized failed: HTTP ${notified.status}`);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<RawCallResult> {
    const response = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const bytes = Buffer.byteLength(response.body);
    if (response.status !== 200)
      return { ok: false, status: response.status, bytes, error: parseHttpError(response.body) };
    const message = parseRpcMessage(response.body) as {
      result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: Array<{ text?: string }> };
      error?: { code: number; message: string };
    };
    if (message.error)
      return {
        ok: false,
        status: 200,
        bytes,
        error: { code: `JSONRPC_${message.error.code}`, message: message.error.message },
      };
    const result = message.result ?? {};
    if (result.isError) {
      return { ok: false, status: 200, bytes, error: parseToolError(result.content?.[0]?.text ?? '') };
    }
    return { ok: true, status: 200, bytes, output: result.structuredContent ?? {} };
  }

  /** DELETE the MCP session so the server frees its per-session state. */
  async close(): Promise<void> {
    if (!this.sessionId) return;
    await this.send('DELETE', undefined);
    this.sessionId = null;
  }

  private post(body: unknown): Promise<{ status: number; body: string; sessionId: string | null }> {
    return this.send('POST', JSON.stringify(body));
  }

  private send(
    method: string,
    body: string | undefined,
  ): Promise<{ status: number; body: string; sessionId: string | null }> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token}`,
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method,
          headers,
          agent: this.agent,
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const sessionId = res.headers['mcp-session-id'];
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              sessionId: typeof sessionId === 'string' ? sessionId : null,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${this.url.pathname} timed out after 60 s`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** The server answers tool calls as one SSE event (or plain JSON); either way one JSON-RPC message. */
function parseRpcMessage(body: string): unknown {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed);
  const data = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((line) => line.length > 0);
  if (data.length === 0) throw new Error(`no JSON-RPC message in response: ${body.slice(0, 200)}`);
  return JSON.parse(data[data.length - 1]);
}

/**
 * Tool errors carry the typed error as JSON on their second line; input rejected by the
 * schema before the tool runs is reported by the SDK as plain text (code INPUT_VALIDATION).
 */
export function parseToolError(text: string): { code: string; message: string } {
  const newline = text.indexOf('\n');
  if (newline >= 0 && text.slice(newline + 1).startsWith('{"error"'))
    return (JSON.parse(text.slice(newline + 1)) as { error: { code: string; message: string } }).error;
  return { code: /Input validation error|-32602/.test(text) ? 'INPUT_VALIDATION' : 'UNTYPED', message: text };
}

function parseHttpError(body: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    return { code: String(parsed.error?.code ?? 'HTTP_ERROR'), message: String(parsed.error?.message ?? body) };
  } catch (cause) {
    return {
      code: 'HTTP_ERROR',
      message: `${body.slice(0, 200)} (${cause instanceof Error ? cause.message : String(cause)})`,
    };
  }
}
