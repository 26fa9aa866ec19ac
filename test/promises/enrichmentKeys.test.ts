import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyEnrichment } from '../../src/core/enrichment/applyEnrichment.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/retrieval.md "Search keys from a model": "A key the model returns that looks like a
 * credential, an e-mail address or a phone number is dropped." One key of each kind the sentence
 * lists, each beside an ordinary key that must be kept (so a filter that drops everything fails too).
 */
const DROPPED: ReadonlyArray<readonly [kind: string, key: string]> = [
  ['credential', 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'],
  ['credential', 'password=Tr0ub4dor-and-3'],
  ['e-mail address', 'billing-owner@example.com'],
  ['phone number', '+1 415-555-0132'],
  ['phone number', '(415) 555-0132'],
];

describe('a search key the model returns is dropped when it is a credential, an e-mail address or a phone number', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  for (const [kind, key] of DROPPED) {
    it(`drops the ${kind} key ${JSON.stringify(key)} and keeps the ordinary keys beside it`, async () => {
      const { memory_id } = await test.core.storeMemory({
        user_id: `enrich-${key.length}-${kind.length}`,
        content: `Quarterly invoices reconcile against the ledger export (${kind})`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      const userId = `enrich-${key.length}-${kind.length}`;
      const [sent] = await test.core.getMemories(userId, [memory_id]);
      const outcome = await applyEnrichment(test.deps, sent, ['billing reconciliation', key, 'month end close'], 'm');
      assert.deepEqual(outcome, { status: 'applied', keys: ['billing reconciliation', 'month end close'] });
      const [stored] = await test.core.getMemories(userId, [memory_id]);
      const keys = stored.metadata.search_keys as string[];
      assert.deepEqual(keys, ['billing reconciliation', 'month end close']);
      assert.ok(!JSON.stringify(stored).includes(key), `the ${kind} is stored nowhere in the record`);
    });
  }
});
