import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ENRICHMENT_PENDING_TAG } from '../../src/core/enrichment/pendingEnrichment.ts';
import { type FakeChatServer, startFakeChatServer } from '../core/extraction/fakeChatServer.ts';
import { openWindow, removeDaemonDataDir, waitUntil } from './daemonHarness.ts';

const USER = 'daemon-enrich-user';

describe('background memory process: enrichment configured by FML_ENRICHMENT_*', () => {
  let server: FakeChatServer;
  let dataDir: string;
  before(async () => {
    server = await startFakeChatServer([
      { content: JSON.stringify({ keys: ['orchestration platform', 'where do services run'] }) },
    ]);
    dataDir = mkdtempSync(join(tmpdir(), 'fml-daemon-enrich-'));
  });
  after(async () => {
    await removeDaemonDataDir(dataDir);
    await server.close();
  });

  it(
    'enriches what a window stores, and the window edits the keys through the process',
    { timeout: 60_000 },
    async () => {
      const window = await openWindow(dataDir, {
        env: {
          FML_ENRICHMENT_PROVIDER: 'openai',
          FML_ENRICHMENT_BASE_URL: server.baseUrl,
          FML_ENRICHMENT_MODEL: 'daemon-keys',
        },
        userId: USER,
      });
      try {
        const stored = await window.core.storeMemory({
          user_id: USER,
          content: 'Every service of the shop is deployed on the k3s cluster in Falkenstein.',
          memory_category: 'semantic',
          memory_subtype: 'environment',
        });
        await waitUntil(
          async () => !(await window.core.getMemory(USER, stored.memory_id)).tags.includes(ENRICHMENT_PENDING_TAG),
          'the enrichment of the stored memory',
        );
        const enriched = await window.core.getMemory(USER, stored.memory_id);
        assert.deepEqual(enriched.metadata.search_keys, ['orchestration platform', 'where do services run']);
        assert.match(server.requests[0]?.messages[1]?.content ?? '', /k3s cluster in Falkenstein/);
        const recalled = await window.core.recall({ user_id: USER, query: 'orchestration platform', project_id: null });
        assert.equal(recalled.memories[0]?.memory_id, stored.memory_id);

        const edited = await window.core.editSearchKeys({
          user_id: USER,
          memory_id: stored.memory_id,
          remove: ['orchestration platform'],
        });
        assert.deepEqual(edited.metadata.search_keys, ['where do services run']);
        const stats = await window.core.stats(USER);
        assert.equal(stats.extraction?.enrichment?.enricher, 'openai:daemon-keys');
        assert.equal(stats.extraction?.enrichment?.keys_added, 2);
      } finally {
        window.connection.close();
      }
    },
  );
});
