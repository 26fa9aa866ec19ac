import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rankingFactsOf } from '../../src/core/domain/rankingFacts.ts';
import { FireboltStore } from '../../src/stores/firebolt/fireboltStore.ts';
import { FireboltQueryClient } from '../../src/stores/firebolt/queryClient.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';
import { startFireboltTestServer, type FireboltTestServer } from '../support/firebolt-server/server.ts';

/** Rows stored before schema version 4 have no turn facts: they are read from the row, then filled at open. */
describe('Firebolt turn-fact columns of rows from before them', () => {
  let server: FireboltTestServer;
  const config = () => ({ kind: 'core' as const, url: server.url, database: 'turnfacts' });

  before(async () => {
    server = await startFireboltTestServer();
  });
  after(() => server.close());

  it('answers from the row until the columns are filled, and fills them at the next open', async () => {
    const user = newUserId();
    const turns = [
      makeMemory(user, { memory_subtype: 'conversation', source_session: 'sess_1', content: 'Which trail?' }),
      makeMemory(user, { memory_subtype: 'conversation', metadata: { session: 7 }, content: 'The north one.' }),
      makeMemory(user, { content: 'A note?' }),
    ];
    const ids = turns.map((memory) => memory.memory_id);
    const expected = {
      [ids[0]!]: { conversation: 'session:sess_1', question: true },
      [ids[1]!]: { conversation: 'session:7', question: false },
      [ids[2]!]: { conversation: null, question: false },
    };
    const first = new FireboltStore(config());
    await first.open();
    for (const memory of turns) await first.insertMemory(memory, null);
    const client = new FireboltQueryClient(config());
    const facts = (store: FireboltStore) => store.turnFacts(user, ids).then((found) => Object.fromEntries(found));
    const unfilled = async () =>
      Number(
        (
          await client.query('SELECT COUNT(*) AS n FROM fml_memories WHERE user_id = $1 AND asks_question IS NULL', [
            user,
          ])
        ).rows[0]!.n,
      );
    try {
      assert.deepEqual(await facts(first), expected, 'written with every insert');
      assert.equal(await unfilled(), 0);
      // As a build before schema version 4 left them.
      await client.query('UPDATE fml_memories SET conversation_key = NULL, asks_question = NULL WHERE user_id = $1', [
        user,
      ]);
      assert.equal(await unfilled(), 3);
      assert.deepEqual(await facts(first), expected, 'read from the rows while the columns are empty');
      const ranking = await first.rankingFacts(user, ids);
      assert.deepEqual(
        Object.fromEntries(
          [...ranking].map(([id, found]) => [id, { conversation: found.conversation, question: found.question }]),
        ),
        expected,
        'ranking facts read from the rows too',
      );
      assert.deepEqual(ranking, new Map(turns.map((memory) => [memory.memory_id, rankingFactsOf(memory)])));
      await first.close();

      const second = new FireboltStore(config());
      await second.open();
      try {
        assert.equal(await unfilled(), 0, 'filled at open');
        assert.deepEqual(await facts(second), expected);
      } finally {
        await second.close();
      }
    } finally {
      client.close();
    }
  });
});
