import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { enricherFromEnv } from '../../src/models/enricherFromEnv.ts';
import { RuleBasedExtractor } from '../../src/core/extraction/ruleBasedExtractor.ts';
import { skipUnlessAvailable } from '../support/prerequisites.ts';
import { createTestCore } from '../support/testCore.ts';
import { type FakeChatServer, startFakeChatServer } from '../core/extraction/fakeChatServer.ts';
import { ASSETS_DIR, type PanelHarness, startPanelHarness, USER } from './panelHarness.ts';

const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
const skip = skipUnlessAvailable(
  'the search-keys panel browser test',
  !existsSync(CHROMIUM)
    ? `chromium not found at ${CHROMIUM}; install it with "apt-get install -y chromium" (or set FML_CHROMIUM)`
    : !existsSync(join(ASSETS_DIR, 'main.js'))
      ? 'the panel is not built; run "npm run build" (dist/webview/main.js missing)'
      : null,
);

describe('search keys in the memory panel (real browser)', { skip }, () => {
  let harness: PanelHarness;
  let server: FakeChatServer;
  let browser: Browser;
  let page: Page;
  let memoryId: string;

  before(async () => {
    server = await startFakeChatServer([
      { content: JSON.stringify({ keys: ['elephant logo', 'which database did we choose'] }) },
    ]);
    const testCore = await createTestCore();
    const queue = await testCore.core.startExtraction(new RuleBasedExtractor(), { log: () => undefined });
    testCore.core.startEnrichment(
      enricherFromEnv({
        FML_ENRICHMENT_PROVIDER: 'openai',
        FML_ENRICHMENT_BASE_URL: server.baseUrl,
        FML_ENRICHMENT_MODEL: 'keys-1',
      })!,
    );
    harness = await startPanelHarness({ pollMs: 200, testCore });
    const stored = await harness.core.storeMemory({
      user_id: USER,
      content: 'Decision: chose PostgreSQL over MySQL because of JSONB support.',
      memory_category: 'episodic',
      memory_subtype: 'decision',
      keywords: ['postgres'],
    });
    memoryId = stored.memory_id;
    await queue.drain();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 720 } });
    await page.goto(harness.pageUrl);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
    await server?.close();
  });

  it('lists each key with its origin, removes one and adds one', async () => {
    await page.locator('.memory-row:not(.loading-row)').filter({ hasText: 'PostgreSQL' }).first().click();
    const keys = page.getByRole('list', { name: 'Search keys' });
    await keys.waitFor();
    assert.match(await keys.locator('li[data-key="postgres"]').innerText(), /agent/);
    assert.match(await keys.locator('li[data-key="elephant logo"]').innerText(), /model openai:keys-1/);
    assert.match(await page.locator('.enrichment-status').innerText(), /Enriched by openai:keys-1/);

    await page.getByRole('button', { name: 'Remove search key elephant logo' }).click();
    await keys.locator('li[data-key="elephant logo"]').waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'New search key' }).fill('primary datastore');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await keys.locator('li[data-key="primary datastore"]').waitFor();
    assert.match(await keys.locator('li[data-key="primary datastore"]').innerText(), /you/);

    const [record] = await harness.core.getMemories(USER, [memoryId]);
    assert.deepEqual(record.metadata.search_keys, ['postgres', 'which database did we choose', 'primary datastore']);
    assert.deepEqual(record.metadata.search_keys_removed, ['elephant logo']);
  });
});
