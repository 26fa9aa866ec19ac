import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TAXONOMY } from '../../src/core/domain/taxonomy.ts';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';
import { hostileValue } from './hostileInput.ts';

/**
 * Property-based fuzzing of every MCP tool's input, on a server bound to the attacker (as the
 * extension and `fml serve --user` run). Each run starts from valid arguments and replaces
 * some of them with hostile values, or adds unknown keys. Whatever comes in: the call answers
 * (no crash, no hang), errors carry a code, the victim's data is never returned or changed,
 * and nothing over 100 KB or outside the taxonomy is stored.
 */
const RUNS_PER_TOOL = 60;
const CALL_BOUND_MS = 15_000;
const SECRET = 'VICTIM-SECRET-7731';
const KNOWN_CODES = new Set([
  'INVALID_INPUT',
  'INVALID_LAYER',
  'MISSING_IDENTIFIER',
  'MEMORY_NOT_FOUND',
  'SESSION_NOT_FOUND',
  'CONTENT_TOO_LONG',
  'QUERY_TOO_LONG',
  'CONFIRMATION_REQUIRED',
  'UNAUTHORIZED',
  'INPUT_VALIDATION',
]);

function errorCodeOf(text: string): string {
  const newline = text.indexOf('\n');
  if (newline >= 0 && text.slice(newline + 1).startsWith('{"error"'))
    return (JSON.parse(text.slice(newline + 1)) as { error: { code: string } }).error.code;
  // Arguments the schema rejects never reach the tool: the SDK answers with -32602.
  if (/Input validation error|-32602/.test(text)) return 'INPUT_VALIDATION';
  return `UNTYPED: ${text.slice(0, 200)}`;
}

describe('fuzzing every MCP tool with hostile input', () => {
  let test: TestCore;
  let victim: { client: Client; close(): Promise<void> };
  let attacker: { client: Client; close(): Promise<void> };
  let db: DatabaseSync;
  const victimIds: string[] = [];
  let victimSnapshot = '';
  const base: Record<string, Record<string, unknown>> = {};

  const snapshot = () =>
    JSON.stringify([
      db
        .prepare(
          "SELECT memory_id, content, deleted_at, importance, metadata FROM long_term_memories WHERE user_id = 'victim' ORDER BY memory_id",
        )
        .all(),
      db.prepare("SELECT item_id, content FROM working_memory_items WHERE user_id = 'victim' ORDER BY item_id").all(),
      db.prepare("SELECT session_id, user_id FROM session_contexts WHERE user_id = 'victim' ORDER BY session_id").all(),
    ]);

  before(async () => {
    test = await createTestCore();
    db = (test.store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    victim = await connectClient({ core: test.core, defaultUserId: 'victim', adminTools: true });
    attacker = await connectClient({ core: test.core, defaultUserId: 'attacker', adminTools: true });
    for (const content of [`The victim's deploy key is ${SECRET}`, `Victim decided to use Postgres ${SECRET}`]) {
      victimIds.push(
        (
          await callOk<{ memory_id: string }>(victim.client, 'store_memory', {
            content,
            memory_category: 'episodic',
            memory_subtype: 'decision',
          })
        ).memory_id,
      );
    }
    const { session_id } = await callOk<{ session_id: string }>(victim.client, 'init_session', {});
    victimIds.push(session_id);
    await callOk(victim.client, 'add_to_working_memory', {
      session_id,
      content: `Victim scratch ${SECRET}`,
      content_type: 'scratchpad',
    });
    await callOk(victim.client, 'set_fact', { category: 'identity', key: 'name', value: `Victim ${SECRET}` });
    victimSnapshot = snapshot();

    const mine = await callOk<{ memory_id: string }>(attacker.client, 'store_memory', {
      content: 'Attacker memory about deploys',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const other = await callOk<{ memory_id: string }>(attacker.client, 'store_memory', {
      content: 'Attacker note on Postgres',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const session = await callOk<{ session_id: string }>(attacker.client, 'init_session', {});
    const m = mine.memory_id;
    Object.assign(base, {
      init_session: { session_id: session.session_id },
      add_to_working_memory: { session_id: session.session_id, content: 'note', content_type: 'scratchpad' },
      get_working_memory: { session_id: session.session_id },
      checkpoint_working_memory: { session_id: session.session_id, force: true },
      clear_working_memory: { session_id: session.session_id, checkpoint_first: false },
      store_memory: { content: 'A fuzzed memory', memory_category: 'semantic', memory_subtype: 'project' },
      recall_memories: { query: 'deploy' },
      update_memory: { memory_id: m, content: 'Updated attacker memory' },
      forget_memory: { memory_id: m },
      forget_all_user_memories: { confirmation: 'nope' },
      get_relevant_context: { session_id: session.session_id, query: 'deploy', token_budget: 500 },
      set_fact: { category: 'identity', key: 'name', value: 'Mallory' },
      get_facts: {},
      delete_fact: { category: 'identity', key: 'name' },
      find_memory_contradictions: {},
      supersede_memory: { memory_id: m, superseded_by: other.memory_id },
      link_memories: { memory_id: m, other_memory_id: other.memory_id },
      unlink_memories: { memory_id: m, other_memory_id: other.memory_id },
      get_related_memories: { memory_id: m },
      auto_link_similar: { memory_id: m },
      memory_prune: { dry_run: true },
      run_daily_maintenance: { dry_run: true },
      memory_quality_report: {},
      get_memory_analytics: {},
      get_recent_calls: {},
      get_recent_errors: {},
      export_memories: {},
      import_memories: { data: { format: 'fml-export', format_version: 1, memories: [] } },
      promote_memory: { memory_id: m, to_layer: 'agent', agent_id: 'fuzz-agent' },
    });
  });
  after(async () => {
    await attacker.close();
    await victim.close();
    await test.cleanup();
  });

  it('has a valid base call for every tool in the catalogue', () => {
    assert.deepEqual(Object.keys(base).sort(), TOOLS.map((tool) => tool.name).sort());
  });

  for (const tool of TOOLS) {
    it(
      `${tool.name}: answers every hostile input with a result or a coded error, and leaks nothing`,
      { timeout: 120_000 },
      async (t) => {
        const tally = { ok: 0, coded: 0 };
        const fields = [...new Set([...Object.keys(tool.input), 'user_id'])];
        const ids = victimIds;
        const overrides = fc.oneof(
          fc.dictionary(fc.constantFrom(...fields), hostileValue(ids), { minKeys: 1, maxKeys: 3 }),
          fc.dictionary(fc.string({ maxLength: 12 }), hostileValue(ids), { minKeys: 1, maxKeys: 2 }),
        );
        await fc.assert(
          fc.asyncProperty(overrides, fc.boolean(), async (override, keepBase) => {
            // The attacker may name any user but the victim; naming the victim is not a leak, it is the victim.
            if (override.user_id === 'victim') return;
            const args = { ...(keepBase ? base[tool.name] : {}), ...override };
            let timer: NodeJS.Timeout | undefined;
            const bounded = new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`${tool.name} hung for ${CALL_BOUND_MS} ms`)), CALL_BOUND_MS);
            });
            const result = await Promise.race([
              attacker.client.callTool({ name: tool.name, arguments: args }),
              bounded,
            ]).finally(() => clearTimeout(timer));
            const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
            assert.ok(
              !text.includes(SECRET),
              `${tool.name} returned the victim's data for ${JSON.stringify(args).slice(0, 300)}`,
            );
            if (result.isError) {
              const code = errorCodeOf(text);
              assert.ok(
                KNOWN_CODES.has(code),
                `${tool.name}: unexpected error ${code} for ${JSON.stringify(args).slice(0, 300)}`,
              );
              tally.coded++;
            } else tally.ok++;
          }),
          { numRuns: RUNS_PER_TOOL, seed: 424_242, endOnFailure: true },
        );
        assert.equal(snapshot(), victimSnapshot, `${tool.name} changed the victim's data`);
        t.diagnostic(`${tally.ok} answered, ${tally.coded} refused with a code`);
      },
    );
  }

  it('stored nothing over 100 KB and nothing outside the taxonomy', () => {
    const tooBig = db
      .prepare('SELECT COUNT(*) AS n FROM long_term_memories WHERE length(CAST(content AS BLOB)) > 102400')
      .get() as { n: number };
    const tooBigWorking = db
      .prepare('SELECT COUNT(*) AS n FROM working_memory_items WHERE length(CAST(content AS BLOB)) > 102400')
      .get() as { n: number };
    assert.equal(tooBig.n, 0);
    assert.equal(tooBigWorking.n, 0);
    const kinds = db
      .prepare('SELECT DISTINCT memory_category AS category, memory_subtype AS subtype FROM long_term_memories')
      .all() as Array<{ category: string; subtype: string }>;
    for (const { category, subtype } of kinds)
      assert.ok(
        (TAXONOMY as Record<string, readonly string[]>)[category]?.includes(subtype),
        `stored ${category}/${subtype}`,
      );
    assert.ok(kinds.length > 0);
  });
});
