import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';
import { countingHeaderReads } from '../support/countingHeaderReads.ts';
import { withTwoStores } from '../support/twoStores.ts';

/**
 * Recall's keyword search and its terms' statistics in one read of the SQLite store
 * (searchLexicalWithStatistics). What must not change: another process's commit is in the next
 * call, in the hits and in the statistics alike.
 */
describe('the keyword search with its statistics', () => {
  it("sees another process's write in the next call, in its hits and its statistics", async () => {
    await withTwoStores(async (mine, theirs) => {
      const user = newUserId();
      await mine.insertMemory(makeMemory(user, { content: 'a heron by the pond' }), null);
      const terms = analyzeQuery('heron');
      const query = { filter: { user_id: user }, terms, limit: 5 };
      const conceptTerms = [terms[0].term];
      const before = await mine.searchLexicalWithStatistics(query, conceptTerms);
      assert.equal(before.hits.length, 1);
      assert.equal(before.statistics.documents, 1);

      const theirsWritten = makeMemory(user, { content: 'a grey heron fishing' });
      await theirs.insertMemory(theirsWritten, null);
      const after = await mine.searchLexicalWithStatistics(query, conceptTerms);
      assert.ok(
        after.hits.some((hit) => hit.memory_id === theirsWritten.memory_id),
        'their memory is a hit',
      );
      assert.equal(after.statistics.documents, 2);
      assert.equal(after.statistics.frequencies.get(conceptTerms[0]), 2);
    });
  });

  it('checks for other processes’ commits once for both, where the two calls check twice', async () => {
    await withTwoStores(async (mine) => {
      const user = newUserId();
      await mine.insertMemory(makeMemory(user, { content: 'a heron by the pond' }), null);
      const terms = analyzeQuery('heron');
      const query = { filter: { user_id: user }, terms, limit: 5 };
      const conceptTerms = [terms[0].term];
      await mine.searchLexicalWithStatistics(query, conceptTerms);
      const together = countingHeaderReads();
      try {
        await mine.searchLexicalWithStatistics(query, conceptTerms);
      } finally {
        together.stop();
      }
      const apart = countingHeaderReads();
      try {
        await Promise.all([mine.searchLexical(query), mine.termStatistics(user, conceptTerms)]);
      } finally {
        apart.stop();
      }
      assert.deepEqual([together.count, apart.count], [1, 2]);
    });
  });
});
