import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreDeps } from '../../src/core/coreDeps.ts';
import { createCoreDeps, MemoryCore, type MemoryCoreOptions } from '../../src/core/memoryCore.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { createMcpServer } from '../../src/mcp/createMcpServer.ts';
import { startHttpServer } from '../../src/http/httpServer.ts';
import type { ServerContext } from '../../src/mcp/serverContext.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';

export interface TestCore {
  core: MemoryCore;
  /** The store under the core, for assertions on what is really stored. */
  store: MemoryStore;
  /** The core's own parts, for tests of core modules (consolidation, decay, links…) on the same store. */
  deps: CoreDeps;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A core on a fresh SQLite store in a temporary directory. */
export async function createTestCore(
  options: Omit<MemoryCoreOptions, 'store'> & { dataDir?: string } = {},
): Promise<TestCore> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'fml-test-'));
  const coreOptions = { ...options, store: new SqliteMemoryStore({ dataDir }) };
  const deps = createCoreDeps(coreOptions);
  const core = new MemoryCore(coreOptions, deps);
  await core.open();
  return {
    core,
    store: deps.store,
    deps,
    dataDir,
    cleanup: async () => {
      await core.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Stores semantic project notes for one user, one after another in the given order, and gives their ids. */
export async function storeNotes(test: TestCore, userId: string, contents: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const content of contents) {
    const stored = await test.core.storeMemory({
      user_id: userId,
      content,
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    ids.push(stored.memory_id);
  }
  return ids;
}

/**
 * Stores episodic events for one user, one after another in the given order (ties in recall go to
 * the last stored), and gives each memory's id by its label.
 */
export async function storeEvents(
  test: TestCore,
  userId: string,
  events: ReadonlyArray<readonly [label: string, content: string, eventTime: string]>,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [label, content, eventTime] of events) {
    const stored = await test.core.storeMemory({
      user_id: userId,
      content,
      memory_category: 'episodic',
      memory_subtype: 'event',
      event_time: eventTime,
    });
    ids[label] = stored.memory_id;
  }
  return ids;
}

/** The labels (as storeEvents or storeNotes' caller named them) of the memories a recall returned, in order; '?' for one with no label. */
export function labelsOf(
  ids: Readonly<Record<string, string>>,
  result: { memories: ReadonlyArray<{ memory_id: string }> },
): string[] {
  const labelOf = new Map(Object.entries(ids).map(([label, id]) => [id, label]));
  return result.memories.map((memory) => labelOf.get(memory.memory_id) ?? '?');
}

export type TransportKind = 'in-memory' | 'http';
/** The transports every tool suite runs over. */
export const TRANSPORTS: readonly TransportKind[] = ['in-memory', 'http'];

/**
 * A real MCP client connected to a real server: over the SDK's in-memory transport, or over
 * Streamable HTTP on 127.0.0.1 with a bearer token, exactly as an editor connects.
 */
export async function connectClient(
  context: ServerContext,
  transport: TransportKind = 'in-memory',
): Promise<{ client: Client; close(): Promise<void> }> {
  if (transport === 'http') {
    const token = 'test-token-0123456789abcdef0123456789abcdef';
    const server = await startHttpServer(context, { port: 0, token });
    const client = new Client({ name: 'fml-test-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    return {
      client,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(context);
  await server.connect(serverTransport);
  const client = new Client({ name: 'fml-test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Calls a tool and returns its structured output, failing loudly on a tool error. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail and returns its error code and message. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string }> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
  const [, json] = text.split('\n');
  return (JSON.parse(json) as { error: { code: string; message: string } }).error;
}

/** Reads a JSON resource of the server. */
export async function readJsonResource<T = Record<string, unknown>>(client: Client, uri: string): Promise<T> {
  const result = await client.readResource({ uri });
  const [content] = result.contents;
  if (!content || !('text' in content)) throw new Error(`${uri} returned no text content`);
  return JSON.parse(content.text) as T;
}
