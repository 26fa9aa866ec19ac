import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listAllMemories } from '../../../src/core/lifecycle/listAll.ts';
import { runDailyMaintenance } from '../../../src/core/lifecycle/maintenance.ts';
import { SimilarityIndex } from '../../../src/core/lifecycle/similarityIndex.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../../src/core/portability/exportFormat.ts';
import { importMemories } from '../../../src/core/portability/importMemories.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';
import { makeMemory } from '../../contract/fixtures.ts';
import { turnsDuring } from '../../support/eventLoopTurns.ts';

const USER = 'sliced-jobs-user';
const MEMORIES = 1_500;

describe('whole-store jobs yield to the event loop', () => {
  let testCore: TestCore;
  before(async () => {
    testCore = await createTestCore();
    const day = 86_400_000;
    for (let index = 0; index < MEMORIES; index++) {
      // Old and never accessed, so decay changes every one of them; a few near-duplicates for consolidation.
      const at = new Date(Date.now() - (200 + (index % 50)) * day).toISOString();
      await testCore.store.insertMemory(
        makeMemory(USER, {
          content: `Build note ${index % 400}: the cache of service ${index} was warmed`,
          created_at: at,
          last_accessed: at,
          updated_at: at,
        }),
        null,
      );
    }
  });
  after(() => testCore.cleanup());

  // Writes already give the loop a turn (group commit); these are the parts that only compute or read.
  it(
    'the consolidation similarity scan, the listing and a dry-run decay give the loop turns',
    { timeout: 120_000 },
    async () => {
      const texts = Array.from(
        { length: 640 },
        (_, index) => `Build note ${index % 200}: the cache of service ${index} was warmed`,
      );
      const scan = await turnsDuring(
        new SimilarityIndex(
          texts,
          texts.map(() => undefined),
        ).clusters(0.9),
      );
      assert.ok(scan.value.length > 0, 'near-duplicates were grouped');
      assert.ok(scan.turns >= 640 / 32 - 1, `only ${scan.turns} turns during the scan`);
      const listing = await turnsDuring(listAllMemories(testCore.store, { user_id: USER, state: 'live' }, MEMORIES));
      assert.equal(listing.value.items.length, MEMORIES);
      assert.ok(listing.turns >= 3, `only ${listing.turns} turns while listing ${MEMORIES} memories`);
      const decay = await turnsDuring(
        runDailyMaintenance(testCore.deps, USER, { dry_run: true, consolidation: { enabled: false } }),
      );
      assert.ok((decay.value.decay?.decayed ?? 0) > 0, 'decay would change memories');
      assert.ok(decay.turns >= 3 + Math.floor(MEMORIES / 256), `only ${decay.turns} turns during a dry-run decay`);
    },
  );

  it(
    'an import of memories already present (nothing written) still gives the loop a turn every 100',
    { timeout: 120_000 },
    async () => {
      const memories = Array.from({ length: 600 }, (_, index) => ({
        ...makeMemory(USER, { content: `Imported fact ${index} about the deploy queue` }),
        deleted: false,
      }));
      const file = {
        format: EXPORT_FORMAT,
        format_version: EXPORT_FORMAT_VERSION,
        exported_at: new Date().toISOString(),
        user_id: USER,
        counts: { memories: memories.length, deleted_memories: 0, sessions: 0, working_items: 0 },
        memories,
        sessions: [],
        working_items: [],
      };
      assert.equal((await importMemories(testCore.deps, USER, file)).memories_imported, 600);
      const again = await turnsDuring(importMemories(testCore.deps, USER, file));
      assert.equal(again.value.memories_skipped, 600);
      assert.ok(again.turns >= 5, `only ${again.turns} turns during the import`);
    },
  );
});
