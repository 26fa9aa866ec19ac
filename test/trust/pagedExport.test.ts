import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory } from '../contract/fixtures.ts';
import { CLI } from '../reliability/support/stdioServer.ts';

const MEMORIES = 6000;
/** The official SDK's stdio reader gives up on a message past this size. */
const SDK_STDIO_LIMIT = 10 * 1024 * 1024;

interface Page {
  counts: { memories: number; sessions: number };
  memories: Array<{ memory_id: string; content: string }>;
  sessions: Array<{ session_id: string }>;
  next_cursor: string | null;
}

describe('export_memories pages a big export under the stdio message limit (issue 13.10)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-export-'));
  const client = new Client({ name: 'export-test', version: '1.0.0' });
  // Set by after(): a before() that timed out keeps running, and a server it started after that
  // would keep this file's process, and with it the whole run, alive.
  let finished = false;
  before(async () => {
    const store = new SqliteMemoryStore({ dataDir });
    await store.open();
    // Inserted 500 at a time: concurrent writes share one commit (group commit), where 6,000 awaited
    // one by one are 6,000 commits, which ran past the 120 s hook timeout at load 20.
    const pending: Array<Promise<void>> = [];
    for (let index = 0; index < MEMORIES; index++) {
      const content =
        `Memory ${index}: ${'the billing service retries failed webhooks with exponential backoff and jitter, '.repeat(7)}`.slice(
          0,
          600,
        );
      pending.push(
        store.insertMemory(
          makeMemory('alice', { content, created_at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString() }),
          null,
        ),
      );
      if (pending.length >= 500) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    await store.commitWorking({
      session: {
        session_id: 'sess_export',
        user_id: 'alice',
        org_id: null,
        project_id: null,
        total_tokens: 3,
        max_tokens: 8000,
        eviction_policy: 'hybrid',
        next_sequence: 2,
        created_at: '2026-01-01T00:00:00.000Z',
        last_activity: '2026-01-01T00:00:00.000Z',
        expires_at: null,
        config: {},
      },
      upsert: [
        {
          item_id: 'wmi_export',
          session_id: 'sess_export',
          user_id: 'alice',
          content_type: 'message',
          content: 'hello there friend',
          token_count: 3,
          relevance_score: 1,
          pinned: false,
          sequence_num: 1,
          created_at: '2026-01-01T00:00:00.000Z',
          last_accessed: '2026-01-01T00:00:00.000Z',
          metadata: {},
        },
      ],
      delete: [],
    });
    await store.close();
    if (finished) return;
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', '--stdio', '--admin-tools', '--data-dir', dataDir],
        env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none' } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
  });
  after(async () => {
    finished = true;
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('returns every memory once, over pages each far below the SDK stdio limit', async () => {
    const seen = new Set<string>();
    const sessions: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let largest = 0;
    do {
      const result = await client.callTool({
        name: 'export_memories',
        arguments: { user_id: 'alice', ...(cursor ? { cursor } : {}) },
      });
      assert.ok(!result.isError, JSON.stringify(result.content).slice(0, 300));
      // The message on the wire: the JSON-RPC result with text and structured content.
      const bytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
      largest = Math.max(largest, bytes);
      assert.ok(bytes < SDK_STDIO_LIMIT / 2, `page ${pages} is ${bytes} bytes`);
      const page = result.structuredContent as unknown as Page;
      assert.equal(page.counts.memories, MEMORIES, 'counts are totals on every page');
      for (const memory of page.memories) {
        assert.ok(!seen.has(memory.memory_id), `${memory.memory_id} twice`);
        seen.add(memory.memory_id);
      }
      sessions.push(...page.sessions.map((session) => session.session_id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor !== undefined);
    assert.equal(seen.size, MEMORIES);
    assert.deepEqual(sessions, ['sess_export']);
    assert.ok(pages > 1, `${pages} pages`);
    assert.ok(largest > 0);
  });

  it('refuses a cursor it did not hand out', async () => {
    const result = await client.callTool({ name: 'export_memories', arguments: { user_id: 'alice', cursor: 'x1' } });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /INVALID_INPUT/);
  });
});
