import { request, type Agent } from 'node:http';

export interface McpHttpAnswer {
  status: number;
  /** The Mcp-Session-Id header of the answer, when it has one. */
  session: string | undefined;
  text: string;
}

export interface McpHttpPostOptions {
  /** The session the request belongs to (sent with the protocol version the session agreed). */
  sessionId?: string;
  /** Sent as a bearer token when given. */
  token?: string;
  /** The connection pool; none (a connection of its own, closed after the answer) by default. */
  agent?: Agent;
}

export const MCP_TEST_PROTOCOL = '2025-06-18';

/** One JSON-RPC POST to /mcp on 127.0.0.1, as an MCP client sends it, with the raw answer. */
export function postMcp(port: number, body: unknown, options: McpHttpPostOptions = {}): Promise<McpHttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        agent: options.agent ?? false,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(options.agent === undefined ? { Connection: 'close' } : {}),
          ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
          ...(options.sessionId === undefined
            ? {}
            : { 'Mcp-Session-Id': options.sessionId, 'Mcp-Protocol-Version': MCP_TEST_PROTOCOL }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolve({ status: res.statusCode ?? 0, session: typeof session === 'string' ? session : undefined, text });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** An initialize request's body. */
export function initializeBody(clientName: string): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: MCP_TEST_PROTOCOL, capabilities: {}, clientInfo: { name: clientName, version: '1' } },
  };
}
