import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LexicalQuery } from '../../../src/core/ports/memoryStore.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/**
 * How many lexical candidates recall scores: BM25 picks them, the coverage scale reorders them, so
 * a pool only as deep as the answer cut memories that coverage would have ranked in (LoCoMo @10).
 */
describe('recall candidate pool', () => {
  let test: TestCore;
  const limits: number[] = [];

  before(async () => {
    test = await createTestCore();
    await test.core.storeMemory({
      user_id: 'pool',
      content: 'The importer retries each batch three times.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    const store = test.store;
    // Recall asks through searchLexicalWithStatistics when it also needs the terms' statistics.
    const search = store.searchLexical.bind(store);
    store.searchLexical = (query: LexicalQuery) => {
      limits.push(query.limit);
      return search(query);
    };
    const searchWithStatistics = store.searchLexicalWithStatistics.bind(store);
    store.searchLexicalWithStatistics = (query: LexicalQuery, terms: readonly string[]) => {
      limits.push(query.limit);
      return searchWithStatistics(query, terms);
    };
  });
  after(() => test.cleanup());

  it('asks for four times the limit, and at least 50', async () => {
    limits.length = 0;
    await test.core.recall({ user_id: 'pool', query: 'importer retries', limit: 25 }, { logAccess: false });
    await test.core.recall({ user_id: 'pool', query: 'importer retries', limit: 5 }, { logAccess: false });
    assert.deepEqual(limits, [100, 50]);
  });
});
