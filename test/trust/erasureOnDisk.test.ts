import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FORGET_ALL_CONFIRMATION } from '../../src/core/api/longTermApi.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every file under the data directory, raw bytes, searched for the marker (case-insensitive), read
 * as single-byte text (SQLite's UTF-8; persisted index files' strings when all fit one byte) and as UTF-16LE
 * (persisted index files' strings otherwise).
 */
function copiesOnDisk(dataDir: string, marker: string): Record<string, number> {
  const found: Record<string, number> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const bytes = readFileSync(path);
        const needle = marker.toLowerCase();
        const count = [
          bytes.toString('latin1'),
          bytes.toString('utf16le'),
          bytes.subarray(1).toString('utf16le'),
        ].reduce((total, text) => total + text.toLowerCase().split(needle).length - 1, 0);
        if (count > 0) found[path] = count;
      }
    }
  };
  walk(dataDir);
  return found;
}

const ERASED = 'xylophonewombat';
const HARD_DELETED = 'quagmirezephyr';
const KEPT = 'marmaladeotter';
const big = (marker: string, index: number) =>
  `Runbook ${index} for ${marker}: ${Array.from({ length: 600 }, (_, word) => `${marker}${word % 7} step ${word}`).join(' ')}`;

describe('erased text is gone from the data directory (issue 13.5)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, adminTools: true }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('leaves no copy in memory.db or its WAL after forget_all_user_memories and hard deletes, before and after the server stops', async () => {
    const user = 'erased';
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push(
        (
          await callOk<{ memory_id: string }>(client, 'store_memory', {
            user_id: user,
            content: big(ERASED, index),
            memory_category: 'procedural',
            memory_subtype: 'workflow',
            metadata: { tags: [`${ERASED}-tag`], source: `${ERASED} wiki` },
          })
        ).memory_id,
      );
    }
    ids.push(
      (
        await callOk<{ memory_id: string }>(client, 'store_memory', {
          user_id: user,
          content: `We decided the ${ERASED} service owns billing`,
          memory_category: 'episodic',
          memory_subtype: 'decision',
          entities: [`service:${ERASED}`],
        })
      ).memory_id,
    );
    await callOk(client, 'link_memories', { user_id: user, memory_id: ids[0], other_memory_id: ids[4] });
    await callOk(client, 'set_fact', { user_id: user, category: 'identity', key: 'codename', value: `${ERASED} one` });
    await callOk(client, 'set_fact', { user_id: user, category: 'identity', key: 'codename', value: `${ERASED} two` });
    await callOk(client, 'recall_memories', { user_id: user, query: `${ERASED} billing` });
    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: user });
    await callOk(client, 'get_relevant_context', {
      user_id: user,
      session_id,
      query: `${ERASED} runbook`,
      token_budget: 2000,
    });
    await callOk(client, 'add_to_working_memory', {
      session_id,
      content: `Scratch notes on ${ERASED} migration plan`,
      content_type: 'scratchpad',
    });
    await callOk(client, 'checkpoint_working_memory', { session_id, force: true });

    const other = 'kept';
    const keptId = (
      await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: other,
        content: `The ${KEPT} dashboard lives in Grafana`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      })
    ).memory_id;
    // Alone in its user, so the recalls below log their queries against this memory only.
    const purged = 'purged';
    const gone = (
      await callOk<{ memory_id: string }>(client, 'store_memory', {
        user_id: purged,
        content: big(HARD_DELETED, 0),
        memory_category: 'procedural',
        memory_subtype: 'workflow',
      })
    ).memory_id;
    await callOk(client, 'recall_memories', { user_id: purged, query: `${HARD_DELETED}3 step` });
    assert.ok(
      Object.keys(copiesOnDisk(test.dataDir, ERASED)).length > 0,
      'the marker is on disk before erasure (the grep works)',
    );

    // Right after the recalls, while their access-log rows may still be queued.
    await callOk(client, 'recall_memories', { user_id: user, query: `${ERASED}2 step` });
    await callOk(client, 'forget_all_user_memories', { user_id: user, confirmation: FORGET_ALL_CONFIRMATION });
    await callOk(client, 'recall_memories', { user_id: purged, query: `${HARD_DELETED}5 step` });
    await callOk(client, 'forget_memory', { user_id: purged, memory_id: gone, hard_delete: true });
    // As if the process were killed right now: nothing may be left in the file or the WAL.
    assert.deepEqual(copiesOnDisk(test.dataDir, ERASED), {}, 'forgotten user, server still running');
    assert.deepEqual(copiesOnDisk(test.dataDir, HARD_DELETED), {}, 'hard-deleted memory, server still running');
    await test.core.close();
    assert.deepEqual(copiesOnDisk(test.dataDir, ERASED), {}, 'after the server stopped');
    assert.deepEqual(copiesOnDisk(test.dataDir, HARD_DELETED), {});
    assert.ok(Object.keys(copiesOnDisk(test.dataDir, KEPT)).length > 0, 'other data is still there');
    // Closing saved the persisted indexes of the users left: the grep reads them too (the kept
    // memory's id is found there), so the two checks above covered those files.
    assert.ok(
      Object.keys(copiesOnDisk(test.dataDir, keptId)).some((path) => path.includes('memory.db-indexes')),
      'the kept memory is in a persisted index file',
    );
    await test.core.open();
    assert.equal((await test.core.getMemories(other, [keptId])).length, 1);
  });
});
