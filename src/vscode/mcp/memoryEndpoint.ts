import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { AnchorChecker } from '../../core/anchors/anchorChecker.ts';
import { startHttpServer, type RunningHttpServer } from '../../http/httpServer.ts';
import { nodeWorkspaceFiles } from '../../runtime/nodeWorkspaceFiles.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';

export interface EndpointInfo {
  mcpUrl: string;
  port: number;
  token: string;
}

/**
 * The Streamable HTTP MCP endpoint on 127.0.0.1 with a fresh bearer token, started on first use:
 * in the memory process next to the core (normally), or in this window when the core is here. It stops whenever the core is reopened (storage settings changed) and
 * `onDidStop` tells the MCP provider to have the editor resolve, and so restart, it again.
 */
export class MemoryEndpoint implements vscode.Disposable {
  private readonly host: MemoryHost;
  private readonly log: Log;
  private running: Promise<{ server: Pick<RunningHttpServer, 'mcpUrl' | 'port' | 'close'>; token: string }> | null =
    null;
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

  private async start(): Promise<{ server: Pick<RunningHttpServer, 'mcpUrl' | 'port' | 'close'>; token: string }> {
    const ready = await this.host.ready();
    const runtime = ready.runtime;
    let running: { server: Pick<RunningHttpServer, 'mcpUrl' | 'port' | 'close'>; token: string };
    if (runtime.kind === 'daemon') {
      // The endpoint lives in the memory process with the core; it closes there when the last window using that core leaves.
      const endpoint = await runtime.connection.endpoint(
        ready.identity.userId,
        setting('mcp.adminTools'),
        anchorFolder(),
      );
      running = {
        server: { mcpUrl: endpoint.mcpUrl, port: endpoint.port, close: async () => undefined },
        token: endpoint.token,
      };
    } else {
      const token = randomBytes(32).toString('base64url');
      const server = await startHttpServer(
        {
          core: runtime.local,
          defaultUserId: ready.identity.userId,
          adminTools: setting('mcp.adminTools'),
          ...workspaceOf(anchorFolder()),
        },
        // Agents call tools in bursts; the limit only stops a runaway client, never a normal session.
        { port: 0, token, rateLimit: { perMinute: 6000, burst: 600 } },
      );
      running = { server, token };
    }
    this.log.info(`MCP endpoint listening on ${running.server.mcpUrl} for user ${ready.identity.userId}.`);
    this.started.fire({ mcpUrl: running.server.mcpUrl, port: running.server.port, token: running.token });
    return running;
  }
}

/**
 * The folder agents' anchors resolve in, the one the window's own anchors use (workspaceAnchors.ts):
 * its first folder on disk; none in Restricted Mode, where nothing is read from the workspace.
 */
function workspaceOf(folder: string | null): { workspace?: AnchorChecker } {
  return folder === null ? {} : { workspace: new AnchorChecker(nodeWorkspaceFiles(folder)) };
}

function anchorFolder(): string | null {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
  return folder && vscode.workspace.isTrusted ? folder.uri.fsPath : null;
}
