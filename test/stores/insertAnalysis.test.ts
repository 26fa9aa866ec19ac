import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { withTwoStores } from '../support/twoStores.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';

/**
 * An insert analyses its memory once, for the lexical_documents row, and hands that analysis to
 * the warm in-memory index. Another connection, catching up from the change log, analyses the
 * same rows itself: both indexes must score every query alike.
 */
describe('the analysis an insert hands to the warm index', () => {
  it('scores as the analysis another connection makes of the same rows', async () => {
    await withTwoStores(async (writer, reader) => {
      const user = newUserId();
      const search = (store: SqliteMemoryStore, text: string) =>
        store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery(text), limit: 50 });
      await writer.insertMemory(makeMemory(user, { content: 'seed note so both indexes exist' }), null);
      await search(writer, 'seed');
      await search(reader, 'seed');
      const texts = [
        'The parseConfig() helper reads YAML in src/config/loader.ts',
        'Deployments to eu-west-1 failed twice: TLS handshake timeouts',
        'Alice prefers tabs; Bob_Smith uses 4 spaces in Python 3.12 projects',
        'running runners ran quickly, quicker than the quickest run',
      ];
      for (const [index, content] of texts.entries())
        await writer.insertMemory(
          makeMemory(user, { content, entities: index % 2 === 0 ? ['Alice'] : [], tags: ['note', `t${index}`] }),
          null,
        );
      for (const query of [
        'config loader yaml',
        'TLS timeouts deployments',
        'alice tabs python',
        'run quick',
        'note t2',
      ]) {
        const mine = await search(writer, query);
        assert.ok(mine.length > 0, query);
        assert.deepEqual(mine, await search(reader, query), query);
      }
    });
  });
});
