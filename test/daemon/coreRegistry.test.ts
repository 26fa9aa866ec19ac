import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EXTRACTION_PENDING_TAG } from '../../src/core/extraction/pendingExtraction.ts';
import { CoreRegistry } from '../../src/daemon/coreRegistry.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { makeMemory } from '../contract/fixtures.ts';
import { sqliteConfig, waitUntil } from './daemonHarness.ts';

const USER = 'registry-user';

describe('core registry: a window’s first recall comes before background work', () => {
  it('pending extraction resumes after the warm-up and the first recall, not before them', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fml-registry-'));
    try {
      // A memory an earlier process left pending extraction (it stopped before the job ran).
      const writer = new SqliteMemoryStore({ dataDir });
      await writer.open();
      const pending = makeMemory(USER, {
        content: 'We decided to use PostgreSQL 15 for the event store. Never push directly to main.',
        memory_category: 'episodic',
        memory_subtype: 'conversation',
        tags: [EXTRACTION_PENDING_TAG],
      });
      await writer.insertMemory(pending, null);
      await writer.close();

      const registry = new CoreRegistry({
        log: () => undefined,
        idleCloseMs: 60_000,
        beforeClose: async () => undefined,
        maintenanceDelayMs: 400,
      });
      try {
        const { core } = await registry.lease(sqliteConfig(dataDir), USER);
        await core.recall({ user_id: USER, query: 'event store database', project_id: null });
        const early = core.extraction!.stats();
        assert.deepEqual(
          [early.queued, early.running, early.succeeded, early.failed],
          [0, 0, 0, 0],
          'nothing resumed the pending extraction before the first recall answered',
        );
        // The tag is cleared by the extraction's own write; the queue counts the job when that write
        // has returned, a turn later, so both are waited for.
        await waitUntil(
          async () =>
            !(await core.getMemory(USER, pending.memory_id)).tags.includes(EXTRACTION_PENDING_TAG) &&
            core.extraction!.stats().succeeded + core.extraction!.stats().failed > 0,
          'the pending extraction to resume once the delay passed',
        );
        assert.equal(core.extraction!.stats().succeeded, 1);
      } finally {
        await registry.closeAll();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
