import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { MEMORY_SUBTYPES, categoryOfSubtype } from '../../src/core/domain/taxonomy.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/mcp.md, "Context weights and what each covers": a context weight of 0 leaves out every
 * memory it covers. The weights and their subtypes are read from that paragraph; one memory of
 * every subtype of the taxonomy is stored on one topic, and for each weight set to 0 the context
 * packs none of its subtypes and still packs the others (so a subtype mapped to the wrong weight, or
 * to none, fails here); a pinned memory, which context considers whatever the question, is left
 * out by its weight too.
 */
const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const paragraph = doc.slice(
  doc.indexOf('**Context weights and what each covers**'),
  doc.indexOf('<!-- promise:mcp-context-weight-sources -->'),
);
const COVERS = new Map(
  [...paragraph.matchAll(/`([a-z_]+)` \(([^)]+)\)/g)]
    .filter((match) => match[1] !== 'context_weights' && match[1] !== 'get_relevant_context')
    .map((match) => [match[1]!, match[2]!.split(',').map((word) => word.trim())]),
);
const USER = 'weights-user';
/** One memory per subtype, each about the zebracorn ledger, none a near-duplicate of another. */
const SENTENCES: Record<string, string> = {
  event: 'The zebracorn ledger outage happened on Tuesday night during the batch window.',
  decision: 'We decided the zebracorn ledger moves to Postgres instead of staying on MySQL.',
  conversation: 'Maria asked in chat whether the zebracorn ledger could be exported hourly.',
  outcome: 'Raising the pool size fixed the zebracorn ledger timeouts for good.',
  user: 'I own the zebracorn ledger and review every change to it myself.',
  project: 'The zebracorn ledger is the billing service that records every invoice line.',
  environment: 'The zebracorn ledger runs on three Kubernetes nodes in eu-west-1.',
  domain: 'In accounting terms the zebracorn ledger is a double-entry journal.',
  entity: 'ZebracornLedger is the TypeScript class that wraps the ledger tables.',
  workflow: 'To release the zebracorn ledger, tag main and let the pipeline deploy it.',
  pattern: 'Zebracorn ledger writes always go through the outbox pattern.',
  tool_usage: 'Use pgcli with the read-only role to inspect the zebracorn ledger.',
  debugging: 'When the zebracorn ledger drifts, compare totals with the reconcile script.',
  communication: 'Explain zebracorn ledger changes to me in short bullet points.',
  style: 'Zebracorn ledger code uses snake_case column names and explicit types.',
  tools: 'For the zebracorn ledger I prefer DBeaver over the psql prompt.',
  boundaries: 'Never run migrations on the zebracorn ledger without asking me first.',
};

describe('a context weight of 0 leaves out every subtype it covers, and only those', () => {
  let test: TestCore;
  let sessionId: string;
  const idOf = new Map<string, string>();
  before(async () => {
    test = await createTestCore();
    sessionId = (await test.core.initSession({ user_id: USER })).session_id;
    await test.core.addToWorkingMemory({
      session_id: sessionId,
      user_id: USER,
      content: 'Right now I am looking at the zebracorn ledger export again.',
      content_type: 'message',
    });
    for (const subtype of MEMORY_SUBTYPES) {
      const stored = await test.core.storeMemory({
        user_id: USER,
        content: SENTENCES[subtype]!,
        memory_category: categoryOfSubtype(subtype)!,
        memory_subtype: subtype,
      });
      idOf.set(stored.memory_id, subtype);
    }
    assert.equal(idOf.size, MEMORY_SUBTYPES.length, 'one memory per subtype');
    // A pinned memory on another topic reaches the context by being pinned, not by matching.
    const pinned = await test.core.storeMemory({
      user_id: USER,
      content: 'Release freezes start every year on the fifteenth of December.',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    await test.core.updateMemory({ user_id: USER, memory_id: pinned.memory_id, pinned: true });
    idOf.set(pinned.memory_id, 'pinned decision');
  });
  after(() => test.cleanup());

  const packed = async (weights: Record<string, number>): Promise<Set<string>> => {
    const context = await test.core.getRelevantContext({
      session_id: sessionId,
      user_id: USER,
      query: 'zebracorn ledger',
      token_budget: 20_000,
      context_weights: weights,
    });
    return new Set(
      context.context_items.map((item) => (item.source === 'working_memory' ? 'working' : idOf.get(item.memory_id!)!)),
    );
  };

  it('reads the weights, and every subtype of the taxonomy is covered by exactly one', () => {
    assert.ok(COVERS.size >= 10, JSON.stringify([...COVERS]));
    const covered = [...COVERS.values()].flat().filter((word) => word !== "the session's items");
    assert.deepEqual([...covered].sort(), [...MEMORY_SUBTYPES].sort());
  });

  it('with no weight at 0, every subtype and the working memory are packed', async () => {
    assert.deepEqual([...(await packed({}))].sort(), ['working', 'pinned decision', ...MEMORY_SUBTYPES].sort());
  });

  for (const [weight, covers] of COVERS) {
    it(`${weight}: 0 leaves out ${covers.join(', ')} and nothing else`, async () => {
      const expectedOut =
        weight === 'working_memory'
          ? ['working']
          : weight === 'episodic_decisions'
            ? [...covers, 'pinned decision']
            : covers;
      const got = await packed({ [weight]: 0 });
      const all = ['working', 'pinned decision', ...MEMORY_SUBTYPES];
      assert.deepEqual(all.filter((source) => !got.has(source)).sort(), [...expectedOut].sort());
    });
  }
});
