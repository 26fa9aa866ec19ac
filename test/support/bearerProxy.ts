import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A pass-through in front of the HTTP server that adds its bearer token, for clients that cannot
 * send one (the MCP conformance suite has no header option). Everything else reaches the server
 * as sent: a Host or Origin naming the proxy is rewritten to name the server (what a client
 * connecting directly would send), any other Host or Origin passes unchanged, so the server's
 * DNS-rebinding guard is what answers a foreign one.
 */
export async function startBearerProxy(target: { port: number }, token: string): Promise<BearerProxy> {
  let own = 0;
  const rewrite = (value: string | undefined): string | undefined =>
    value?.replace(new RegExp(`^(https?://)?(127\\.0\\.0\\.1|localhost|\\[::1\\]):${own}$`), `$1$2:${target.port}`);
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` };
    headers.host = rewrite(incoming.headers.host);
    if (incoming.headers.origin !== undefined) headers.origin = rewrite(incoming.headers.origin);
    const forwarded = request(
      { host: '127.0.0.1', port: target.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      outgoing.writeHead(502, { 'Content-Type': 'text/plain' }).end(`proxy: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${own}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
