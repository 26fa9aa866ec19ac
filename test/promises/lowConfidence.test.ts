import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * SECURITY.md, "Memory poisoning": low-confidence memories (confidence below 0.8) are hidden from
 * recall and context by default. Memories on one topic at confidence 0.8 and just below it: the
 * first is found, the second only with include_low_confidence, in recall and in context alike; no
 * other optional parameter of recall_memories, set to widen what passes, shows it (each is read
 * from the tool's schema: a new one fails until it has a value here).
 */
const USER = 'poisoning-user';
const QUESTION = 'Which port does the zebracorn billing gateway listen on?';
/** A widening value for each optional parameter of recall_memories but include_low_confidence. */
const WIDENING: Record<string, Record<string, unknown>> = {
  memory_categories: { memory_categories: ['semantic', 'episodic', 'procedural', 'preference'] },
  memory_subtypes: { memory_subtypes: ['environment', 'project'] },
  entities: { entities: ['zebracorn'] },
  limit: { limit: 100 },
  min_similarity: { min_similarity: 0 },
  alternate_queries: { alternate_queries: ['zebracorn gateway port', 'billing gateway listens'] },
  time_range: { time_range: { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' } },
  tags: { tags: ['zebracorn'] },
  layers: { layers: ['user', 'agent', 'session'], agent_id: 'copilot', session_id: 'sess_low_confidence' },
  explain: { explain: true },
  agent_id: { agent_id: 'copilot' },
  session_id: { session_id: 'sess_low_confidence' },
  project_id: { project_id: null },
  team_id: { team_id: 'platform' },
  org_id: { org_id: 'acme' },
  company_id: { company_id: 'globex' },
};

describe('memories under confidence 0.8 are hidden from recall and context unless asked for', () => {
  let test: TestCore;
  const ids: Record<string, string> = {};
  let sessionId: string;
  before(async () => {
    test = await createTestCore();
    for (const [label, confidence, port] of [
      ['at', 0.8, 8443],
      ['below', 0.7999, 9443],
      ['far below', 0.5, 7443],
    ] as const) {
      ids[label] = (
        await test.core.storeMemory({
          user_id: USER,
          content: `The zebracorn billing gateway listens on port ${port}.`,
          memory_category: 'semantic',
          memory_subtype: 'environment',
          confidence,
        })
      ).memory_id;
    }
    sessionId = (await test.core.initSession({ user_id: USER })).session_id;
  });
  after(() => test.cleanup());

  const recalled = async (includeLow?: boolean): Promise<string[]> =>
    (
      await test.core.recall({
        user_id: USER,
        query: QUESTION,
        ...(includeLow === undefined ? {} : { include_low_confidence: includeLow }),
      })
    ).memories.map((memory) => memory.memory_id);

  it('recall finds the memory at 0.8 and hides those below it', async () => {
    const found = await recalled();
    assert.ok(found.includes(ids.at!), 'the memory at 0.8 is found');
    assert.ok(!found.includes(ids.below!), 'the memory at 0.7999 is hidden');
    assert.ok(!found.includes(ids['far below']!), 'the memory at 0.5 is hidden');
    assert.deepEqual(await recalled(false), found, 'include_low_confidence: false is the default');
  });

  it('has a widening value for every optional parameter of recall_memories', () => {
    const optional = Object.keys(TOOLS.find((tool) => tool.name === 'recall_memories')!.input).filter(
      (name) => !['user_id', 'query', 'include_low_confidence'].includes(name),
    );
    assert.deepEqual(
      optional.filter((name) => !(name in WIDENING)),
      [],
    );
  });

  for (const [name, widening] of Object.entries(WIDENING)) {
    it(`${name}, widened, still hides the memories below 0.8`, async () => {
      const found = (await test.core.recall({ user_id: USER, query: QUESTION, ...widening } as never)).memories.map(
        (memory) => memory.memory_id,
      );
      assert.ok(!found.includes(ids.below!) && !found.includes(ids['far below']!), JSON.stringify(found));
    });
  }

  it('include_low_confidence shows them', async () => {
    const found = await recalled(true);
    for (const label of ['at', 'below', 'far below']) assert.ok(found.includes(ids[label]!), label);
  });

  it('get_relevant_context packs the memory at 0.8 and none below it', async () => {
    const context = await test.core.getRelevantContext({
      session_id: sessionId,
      user_id: USER,
      query: QUESTION,
      token_budget: 4_000,
    });
    const packed = context.context_items.map((item) => item.memory_id);
    assert.ok(packed.includes(ids.at!), JSON.stringify(packed));
    assert.ok(!packed.includes(ids.below!), 'the memory at 0.7999 is packed');
    assert.ok(!packed.includes(ids['far below']!), 'the memory at 0.5 is packed');
  });
});
