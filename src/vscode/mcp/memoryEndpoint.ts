import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { startHttpServer, type RunningHttpServer } from '../../mcp/httpServer.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';

export interface EndpointInfo {
  mcpUrl: string;
  port: number;
  token: string;
}

/**
 * The in-process Streamable HTTP MCP endpoint on 127.0.0.1, started on first use with a fresh
 * bearer token. It stops whenever the core is reopened (storage settings changed) and
 * `onDidStop` tells the MCP provider to have the editor resolve, and so restart, it again.
 */
export class MemoryEndpoint implements vscode.Disposable {
  private readonly host: MemoryHost;
  private readonly log: Log;
  private running: Promise<{ server: RunningHttpServer; token: string }> | null = null;
  private readonly stopped = new vscode.EventEmitter<void>();
  readonly onDidStop = this.stopped.event;
  private readonly started = new vscode.EventEmitter<EndpointInfo>();
  readonly onDidStart = this.started.event;
  private readonly subscription: vscode.Disposable;

  constructor(host: MemoryHost, log: Log) {
    this.host = host;
    this.log = log;
    this.subscription = host.onDidChange((ready) => {
      if (ready === undefined) void this.stop();
    });
  }

  async ensureStarted(): Promise<EndpointInfo> {
    this.running ??= this.start();
    try {
      const { server, token } = await this.running;
      return { mcpUrl: server.mcpUrl, port: server.port, token };
    } catch (error) {
      this.running = null;
      throw error;
    }
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (!running) return;
    const { server } = await running;
    await server.close();
    this.log.info('MCP endpoint stopped.');
    this.stopped.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    void this.stop();
    this.stopped.dispose();
    this.started.dispose();
  }

  private async start(): Promise<{ server: RunningHttpServer; token: string }> {
    const ready = await this.host.ready();
    const token = randomBytes(32).toString('base64url');
    const server = await startHttpServer(
      { core: ready.core, defaultUserId: ready.identity.userId },
      // Agents call tools in bursts; the limit only stops a runaway client, never a normal session.
      { port: 0, token, rateLimit: { perMinute: 6000, burst: 600 } },
    );
    this.log.info(`MCP endpoint listening on ${server.mcpUrl} for user ${ready.identity.userId}.`);
    this.started.fire({ mcpUrl: server.mcpUrl, port: server.port, token });
    return { server, token };
  }
}
