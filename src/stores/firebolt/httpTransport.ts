import type { Agent as HttpAgent, IncomingHttpHeaders } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A failure below HTTP. `delivered` is false only when the server cannot have seen the
 * request (refused, DNS, or a stale keep-alive socket), which makes a retry safe even for a
 * write that is not idempotent.
 */
export class TransportError extends Error {
  readonly code: string;
  readonly delivered: boolean;

  constructor(message: string, code: string, delivered: boolean, cause?: unknown) {
    super(message, { cause });
    this.name = 'TransportError';
    this.code = code;
    this.delivered = delivered;
  }
}

const http = (): typeof import('node:http') => process.getBuiltinModule('node:http');
const https = (): typeof import('node:https') => process.getBuiltinModule('node:https');
const AGENT = { keepAlive: true, maxSockets: 8 };

const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface HttpRequestOptions {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * node:http rather than fetch: it reports whether a reset socket was a reused one. The module of a
 * protocol is loaded at its first request, not with this file: node:https brings TLS in, 30–45 ms of
 * CPU at every start of every `fml` process (node:http 10), and most stores never speak to Firebolt
 * (docs/benchmarks.md, "Node's own modules at a process start").
 */
export class HttpTransport {
  #http: HttpAgent | null = null;
  #https: HttpsAgent | null = null;

  send(options: HttpRequestOptions): Promise<HttpResponse> {
    const secure = options.url.protocol === 'https:';
    const send = secure ? https().request : http().request;
    const agent = secure ? (this.#https ??= new (https().Agent)(AGENT)) : (this.#http ??= new (http().Agent)(AGENT));
    return new Promise((resolve, reject) => {
      const request = send(
        options.url,
        {
          method: options.method,
          headers: {
            ...options.headers,
            ...(options.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(options.body)) } : {}),
          },
          agent,
          timeout: options.timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) =>
            reject(new TransportError(`Firebolt response interrupted: ${error.message}`, 'ERESPONSE', true, error)),
          );
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('timeout', () =>
        request.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? 'EUNKNOWN';
        const staleSocket = request.reusedSocket && code === 'ECONNRESET';
        reject(
          new TransportError(
            `Cannot reach Firebolt at ${options.url.origin}: ${code}`,
            code,
            !(NOT_DELIVERED.has(code) || staleSocket),
            error,
          ),
        );
      });
      request.end(options.body);
    });
  }

  close(): void {
    this.#http?.destroy();
    this.#https?.destroy();
  }
}
