import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivationTimes } from './activationTimes.ts';
import type { EndpointInfo } from './mcp/memoryEndpoint.ts';
import type { ReadyMemory } from './runtime/memoryHost.ts';

/**
 * Test-only: with FML_E2E=1 and FML_E2E_DIR set (the code-server suite does this), the extension
 * writes what the test needs to check it from outside: identity, data dir, activation times, the
 * MCP endpoint and token, and whether the editor resolved the MCP definition. Never active otherwise.
 */
export class E2eProbe {
  private readonly path: string;
  private state: Record<string, unknown> = {};

  private constructor(directory: string) {
    this.path = join(directory, 'extension-state.json');
  }

  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): E2eProbe | null {
    return env.FML_E2E === '1' && env.FML_E2E_DIR ? new E2eProbe(env.FML_E2E_DIR) : null;
  }

  ready(ready: ReadyMemory, times: ActivationTimes): void {
    this.update({
      backend: ready.core.backendKind,
      userId: ready.identity.userId,
      projectId: ready.identity.scopeProjectId ?? null,
      sessionId: ready.identity.sessionId,
      dataDir: ready.dataDir,
      ...times.snapshot(),
    });
  }

  endpoint(info: EndpointInfo): void {
    this.update({ mcpUrl: info.mcpUrl, token: info.token });
  }

  resolvedByEditor(): void {
    this.update({ resolvedByEditor: ((this.state.resolvedByEditor as number | undefined) ?? 0) + 1 });
  }

  status(text: string): void {
    this.update({ statusText: text });
  }

  private update(values: Record<string, unknown>): void {
    this.state = { ...this.state, ...values, updatedAt: new Date().toISOString() };
    writeFileSync(this.path, JSON.stringify(this.state, null, 2), { mode: 0o600 });
  }
}
