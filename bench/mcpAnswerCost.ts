/**
 * What the MCP surface costs an agent, in cl100k tokens: the tool definitions every request
 * carries (from the real tools/list), and a default recall_memories answer against the share of
 * it that is the memories' own text. Printed by `npm run bench`.
 *
 * The recall corpus is the 40 memories of ../shared/data/coding-dev.json (what a coding agent
 * stores: one or two sentences each), loaded at run time and never copied into the repository;
 * each of its 40 queries is asked with limit 5.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { TiktokenCounter } from '../src/core/tokens/tokenCounter.ts';
import { createMcpServer } from '../src/mcp/createMcpServer.ts';
import type { ServerContext } from '../src/mcp/serverContext.ts';
import { toolListCost } from '../src/mcp/toolListCost.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';

interface CodingDev {
  memories: Array<{ cat: string; sub: string; text: string }>;
  queries: Array<{ q?: string; query?: string; text?: string }>;
}

async function connect(context: ServerContext): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(context);
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

export async function printMcpAnswerCost(root: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-bench-mcp-'));
  const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
  await core.open();
  // The editor and `fml serve --project` bind a project too: a core of its own, on its own directory.
  const projectDir = mkdtempSync(join(tmpdir(), 'fml-bench-mcp-project-'));
  const projectCore = new MemoryCore({
    store: new SqliteMemoryStore({ dataDir: projectDir }),
    defaultProjectId: 'bench/project',
  });
  await projectCore.open();
  const counter = new TiktokenCounter();
  try {
    console.log('\n## MCP token cost (cl100k)');
    console.log('| server | tools | definitions (name + description + input schema) | whole tools/list |');
    console.log('|---|---|---|---|');
    const servers: Array<[string, ServerContext]> = [
      ['unbound (`fml serve`)', { core }],
      ['bound to a user (`fml serve --user`)', { core, defaultUserId: 'bench-user' }],
      [
        'bound to a user and project (the editor, `fml serve --user --project`)',
        { core: projectCore, defaultUserId: 'bench-user' },
      ],
      ['unbound, with the admin group (`--admin-tools`)', { core, adminTools: true }],
      [
        'bound to a user and project, with the admin group',
        { core: projectCore, defaultUserId: 'bench-user', adminTools: true },
      ],
    ];
    for (const [label, context] of servers) {
      const { client, close } = await connect(context);
      const cost = toolListCost((await client.listTools()).tools, counter);
      await close();
      console.log(
        `| ${label} | ${cost.tools} | ${cost.definitionTokens.toLocaleString('en')} | ${cost.listingTokens.toLocaleString('en')} |`,
      );
    }

    const path = process.env.CODING_DEV_PATH ?? resolve(root, '../shared/data/coding-dev.json');
    let data: CodingDev;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as CodingDev;
    } catch (error) {
      console.log(
        `recall answer size: skipped, ${path} not readable (${error instanceof Error ? error.message : String(error)}); set CODING_DEV_PATH`,
      );
      return;
    }
    const { client, close } = await connect({ core, defaultUserId: 'bench-user' });
    for (const memory of data.memories) {
      const stored = await client.callTool({
        name: 'store_memory',
        arguments: { content: memory.text, memory_category: memory.cat, memory_subtype: memory.sub },
      });
      if (stored.isError) throw new Error(`store_memory failed: ${JSON.stringify(stored.content)}`);
    }
    let answerTokens = 0;
    let memoryTokens = 0;
    let explainedTokens = 0;
    let answers = 0;
    let empty = 0;
    let filledAnswerTokens = 0;
    for (const query of data.queries) {
      const text = query.q ?? query.query ?? query.text;
      if (typeof text !== 'string') continue;
      const result = await client.callTool({ name: 'recall_memories', arguments: { query: text, limit: 5 } });
      const memories = (result.structuredContent as { memories: Array<{ content: string }> }).memories;
      // What the agent reads is the text content; the structured content is for programs.
      const read = counter.count((result.content as Array<{ text: string }>)[0]!.text);
      answerTokens += read;
      if (memories.length === 0) empty++;
      else filledAnswerTokens += read;
      memoryTokens += memories.reduce((sum, memory) => sum + counter.count(memory.content), 0);
      const explained = await client.callTool({
        name: 'recall_memories',
        arguments: { query: text, limit: 5, explain: true },
      });
      explainedTokens += counter.count(JSON.stringify(explained.structuredContent));
      answers++;
    }
    await close();
    console.log(
      `\nrecall_memories, limit 5, ${answers} queries of coding-dev.json over its ${data.memories.length} memories: the text an agent reads averages ${(answerTokens / answers).toFixed(0)} tokens, of which the memories' own text ${(memoryTokens / answers).toFixed(0)} (${((memoryTokens / answerTokens) * 100).toFixed(0)} %, counting the ${empty} empty answers, whose abstention note is all overhead; ${((memoryTokens / filledAnswerTokens) * 100).toFixed(0)} % of the ${answers - empty} answers with memories); the structured content with explain: true averages ${(explainedTokens / answers).toFixed(0)} tokens`,
    );
  } finally {
    await core.close();
    await projectCore.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(projectDir, { recursive: true, force: true });
  }
}

// `npm run bench:mcp` runs this part of `npm run bench` on its own.
if (import.meta.main) await printMcpAnswerCost(new URL('..', import.meta.url).pathname);
