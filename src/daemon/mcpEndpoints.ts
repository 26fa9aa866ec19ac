import { randomBytes } from 'node:crypto';
import type { MemoryCore } from '../core/memoryCore.ts';
import type { RunningHttpServer } from '../http/httpServer.ts';

/** The MCP endpoints (HTTP servers on 127.0.0.1) the memory process runs for its windows' agents. */
export class McpEndpoints {
  private readonly endpoints = new Map<string, Promise<RunningHttpServer & { token: string }>>();
  private readonly log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.log = log;
  }

  open(
    coreKey: string,
    core: MemoryCore,
    userId: string,
    adminTools: boolean,
    workspaceDir: string | null,
  ): Promise<{ mcpUrl: string; port: number; token: string }> {
    // One endpoint per tool set and workspace: windows that opt into the admin group get their own,
    // and so does each folder, whose files its agents' anchors are resolved in.
    const key = `${coreKey}\0${userId}\0${adminTools ? 'admin' : 'agent'}\0${workspaceDir ?? ''}`;
    let running = this.endpoints.get(key);
    if (running === undefined) {
      running = (async () => {
        // Loaded with the first endpoint: the MCP SDK and the tools' schemas are not on a memory process's path to its first recall.
        const [{ startHttpServer }, { AnchorChecker }, { nodeWorkspaceFiles }] = await Promise.all([
          import('../http/httpServer.ts'),
          import('../core/anchors/anchorChecker.ts'),
          import('../runtime/nodeWorkspaceFiles.ts'),
        ]);
        const token = randomBytes(32).toString('base64url');
        const workspace =
          workspaceDir === null ? {} : { workspace: new AnchorChecker(nodeWorkspaceFiles(workspaceDir)) };
        // Agents call tools in bursts; the limit only stops a runaway client, never a normal session.
        const server = await startHttpServer(
          { core, defaultUserId: userId, adminTools, ...workspace },
          { port: 0, token, rateLimit: { perMinute: 6000, burst: 600 } },
        );
        this.log(
          `MCP endpoint for user ${userId}${workspaceDir === null ? '' : ` in ${workspaceDir}`} on ${server.mcpUrl}`,
        );
        return Object.assign(server, { token });
      })();
      this.endpoints.set(key, running);
      running.catch(() => this.endpoints.delete(key));
    }
    return running.then((server) => ({ mcpUrl: server.mcpUrl, port: server.port, token: server.token }));
  }

  /** Closes the endpoints of one core (its store is closing). */
  async closeFor(coreKey: string): Promise<void> {
    for (const [key, endpoint] of this.endpoints) {
      if (!key.startsWith(`${coreKey}\0`)) continue;
      this.endpoints.delete(key);
      await (await endpoint).close();
    }
  }

  async closeAll(): Promise<void> {
    for (const endpoint of this.endpoints.values()) await (await endpoint).close();
    this.endpoints.clear();
  }
}
