import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { LIMITS } from '../../src/core/validation.ts';
import { connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

type JsonSchema = Record<string, unknown>;
type LimitName = keyof typeof LIMITS;

/**
 * Every bounded field of every listed input schema, as tool.path → the LIMITS entry it must equal.
 * A bound added to a schema without an entry here fails the walk, so a hard-coded maximum cannot
 * creep back in beside the one the core enforces.
 */
const BOUNDS: Record<string, LimitName> = {
  'init_session.config.max_tokens': 'maxTokens',
  'get_working_memory.token_budget': 'tokenBudget',
  'get_relevant_context.token_budget': 'tokenBudget',
  'recall_memories.limit': 'recallLimit',
  'recall_memories.alternate_queries': 'alternateQueries',
  'store_memory.keywords': 'searchKeys',
  'get_related_memories.max_depth': 'relatedDepth',
  'get_related_memories.limit': 'recallLimit',
  'auto_link_similar.max_links': 'autoLinks',
  'find_memory_contradictions.limit': 'contradictionPairs',
  'get_recent_calls.limit': 'recentCalls',
  'get_recent_errors.limit': 'recentCalls',
  'get_memory_analytics.buckets': 'analyticsBuckets',
  'memory_prune.limit': 'pruneBatch',
  'run_daily_maintenance.decay.base_stability_days': 'stabilityDays',
  'run_daily_maintenance.consolidation.max_candidates': 'consolidationCandidates',
  'run_daily_maintenance.prune.limit': 'pruneBatch',
  'set_fact.key': 'factKeyChars',
  'set_fact.value': 'factValueChars',
  'get_facts.key': 'factKeyChars',
  'delete_fact.key': 'factKeyChars',
  'promote_memory.reason': 'reasonChars',
  'supersede_memory.reason': 'reasonChars',
  'export_memories.cursor': 'cursorChars',
  'forget_memory.memory_ids': 'batchIds',
};

interface Bound {
  path: string;
  max: number;
}

/** Maxima of a JSON schema: maximum, maxItems and maxLength, by dotted field path. */
function boundsOf(schema: JsonSchema, path: string, found: Bound[]): Bound[] {
  for (const keyword of ['maximum', 'maxItems', 'maxLength']) {
    const value = schema[keyword];
    // A maximum of 1 on a number from 0 is a score in [0, 1] (requireUnitInterval), not a size limit.
    if (typeof value === 'number' && !(keyword === 'maximum' && value === 1)) found.push({ path, max: value });
  }
  for (const [field, child] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}))
    boundsOf(child, `${path}.${field}`, found);
  for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? []) boundsOf(branch, path, found);
  return found;
}

describe('input-schema limits come from LIMITS', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(async () => {
    await test.cleanup();
  });

  it('every bounded field of the listed tools has the maximum of its LIMITS entry', async () => {
    const { client, close } = await connectClient({ core: test.core, adminTools: true });
    let bounds: Bound[];
    try {
      bounds = (await client.listTools()).tools.flatMap((tool) =>
        boundsOf(tool.inputSchema as JsonSchema, tool.name, []),
      );
    } finally {
      await close();
    }
    const seen = new Set<string>();
    for (const { path, max } of bounds) {
      const limit = BOUNDS[path];
      assert.ok(limit, `${path} has a maximum (${max}) that no LIMITS entry names`);
      assert.equal(max, LIMITS[limit], `${path} is bounded by LIMITS.${limit}`);
      seen.add(path);
    }
    for (const path of Object.keys(BOUNDS)) assert.ok(seen.has(path), `${path} is listed with its bound`);
  });

  it('the core refuses one past each limit it enforces', async () => {
    const core = test.core;
    const user = 'limits-user';
    const [older, newer] = await Promise.all(
      ['The orders service uses PostgreSQL 16.', 'The orders service uses PostgreSQL 17 since the upgrade.'].map(
        async (content) =>
          (await core.storeMemory({ user_id: user, content, memory_category: 'semantic', memory_subtype: 'project' }))
            .memory_id,
      ),
    );
    const { session_id: session } = await core.initSession({ user_id: user });
    const tooLong = (limit: number) => 'x'.repeat(limit + 1);
    const probes: Array<[string, string, () => Promise<unknown>]> = [
      [
        'session max_tokens',
        'config.max_tokens',
        () => core.initSession({ user_id: user, config: { max_tokens: LIMITS.maxTokens + 1 } }),
      ],
      [
        'working token_budget',
        'token_budget',
        () => core.getWorkingMemory({ session_id: session, user_id: user, token_budget: LIMITS.tokenBudget + 1 }),
      ],
      [
        'context token_budget',
        'token_budget',
        () =>
          core.getRelevantContext({
            session_id: session,
            user_id: user,
            query: 'orders',
            token_budget: LIMITS.tokenBudget + 1,
          }),
      ],
      ['recall limit', 'limit', () => core.recall({ user_id: user, query: 'orders', limit: LIMITS.recallLimit + 1 })],
      [
        'alternate_queries',
        'alternate_queries',
        () =>
          core.recall({
            user_id: user,
            query: 'orders',
            alternate_queries: Array.from({ length: LIMITS.alternateQueries + 1 }, (_, index) => `q${index}`),
          }),
      ],
      [
        'keywords',
        'keywords',
        () =>
          core.storeMemory({
            user_id: user,
            content: 'A memory with too many keys.',
            memory_category: 'semantic',
            memory_subtype: 'project',
            keywords: Array.from({ length: LIMITS.searchKeys + 1 }, (_, index) => `k${index}`),
          }),
      ],
      [
        'related max_depth',
        'max_depth',
        () => core.relatedMemories({ user_id: user, memory_id: older!, max_depth: LIMITS.relatedDepth + 1 }),
      ],
      [
        'related limit',
        'limit',
        () => core.relatedMemories({ user_id: user, memory_id: older!, limit: LIMITS.recallLimit + 1 }),
      ],
      ['contradiction pairs', 'limit', () => core.findContradictions(user, { limit: LIMITS.contradictionPairs + 1 })],
      [
        'fact key',
        'key',
        () => core.setFact({ user_id: user, category: 'preference', key: tooLong(LIMITS.factKeyChars), value: 'tabs' }),
      ],
      [
        'fact value',
        'value',
        () =>
          core.setFact({ user_id: user, category: 'preference', key: 'indent', value: tooLong(LIMITS.factValueChars) }),
      ],
      [
        'supersede reason',
        'reason',
        () =>
          core.supersedeMemory({
            user_id: user,
            memory_id: older!,
            superseded_by: newer!,
            reason: tooLong(LIMITS.reasonChars),
          }),
      ],
      [
        'promote reason',
        'reason',
        () =>
          core.promoteMemory({
            user_id: user,
            memory_id: older!,
            to_layer: 'project',
            project_id: 'acme/orders',
            reason: tooLong(LIMITS.reasonChars),
          }),
      ],
    ];
    for (const [name, field, probe] of probes) {
      await assert.rejects(
        probe,
        (error: unknown) =>
          error instanceof MemoryError && error.code === 'INVALID_INPUT' && error.details?.field === field,
        `${name} past its limit is refused as INVALID_INPUT on ${field}`,
      );
    }
    // The refused calls changed nothing: the older memory is still current.
    assert.equal((await core.getMemory(user, older!)).superseded_by, null);
  });
});
