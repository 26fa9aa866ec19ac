import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { skipUnlessAvailable } from '../support/prerequisites.ts';
import { createTestCore } from '../support/testCore.ts';
import { anchorFor } from '../../src/core/anchors/anchorChecker.ts';
import { ASSETS_DIR, type PanelHarness, seedMemories, SESSION, startPanelHarness, USER } from './panelHarness.ts';
import {
  ACTIVE_ELEMENT_TEXT,
  activeElementAttribute,
  applyThemeScript,
  CLIPPED_BADGES,
  FOCUS_WINDOW,
  FORWARDED_KEYS,
  INSTALL_KEY_FORWARDER,
  overflowingScript,
  PANEL_LAYOUT_SELECTORS,
  TAB_ROWS,
  UNLABELLED_CONTROLS,
} from './pageScripts.ts';
import { THEME_BODY_CLASS, THEMES, type ThemeName } from './vscodeThemes.ts';

const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'dist', 'panel-screenshots');
const skip = skipUnlessAvailable(
  'the panel browser suite',
  !existsSync(CHROMIUM)
    ? `chromium not found at ${CHROMIUM}; install it with "apt-get install -y chromium" (or set FML_CHROMIUM)`
    : !existsSync(join(ASSETS_DIR, 'main.js'))
      ? 'the panel is not built; run "npm run build" (dist/webview/main.js missing)'
      : null,
);

/** Applies a VS Code theme the way VS Code does: variables on the root, a class on the body. */
async function applyTheme(page: Page, theme: ThemeName): Promise<void> {
  await page.evaluate(applyThemeScript(THEMES[theme], THEME_BODY_CLASS[theme]));
}

describe('memory panel in a real browser', { skip }, () => {
  let harness: PanelHarness;
  let ids: Record<string, string>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const rows = () => page.locator('.memory-row:not(.loading-row)');
  const status = () => page.locator('.list-status');
  const memory = async (id: string) => (await harness.core.getMemories(USER, [id]))[0];
  /**
   * Waits for an Undo (Ctrl+Z or the toast's button) to have been answered by the host. The panel
   * removes the Undo message and empties the announcer when the undo starts, and announces the
   * restore when the host answers; without the emptying, the announcer would still hold the
   * "Restored 1 memory." of an earlier undo, and this would return before the restore was stored.
   */
  const restoredInPanel = async () => {
    await page.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
    await page.getByTestId('announcer').filter({ hasText: 'Restored 1 memory' }).waitFor();
  };
  /** The list status once it shows a search's result count again (not "Loading…" while a search re-reads). */
  const settledResultCount = async () => {
    const counted = status().filter({ hasText: /^\d+ results?\b/ });
    await counted.waitFor();
    return counted.innerText();
  };

  before(async () => {
    const { chromium } = await import('playwright-core');
    // A configured team opens the team layer, so the detail pane offers promotion to it.
    harness = await startPanelHarness({
      pollMs: 200,
      testCore: await createTestCore({ config: { layerDefaults: { team_id: 'panel-team' } } }),
    });
    ids = await seedMemories(harness.core);
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
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(harness.pageUrl);
    await rows().first().waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('opens through the token URL, drops the token from the address bar, and lists memories', async () => {
    assert.equal(new URL(page.url()).search, '', 'the token is not left in the URL');
    await assert.doesNotReject(status().filter({ hasText: '46 memories' }).waitFor());
    assert.ok((await rows().count()) >= 10);
  });

  it('searches with the agent recall and shows the score breakdown', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('postgres billing');
    await status()
      .filter({ hasText: /result/ })
      .waitFor();
    await assert.doesNotReject(rows().first().filter({ hasText: 'PostgreSQL 17' }).waitFor());
    await rows().first().click();
    const breakdown = page.getByRole('region', { name: 'Score breakdown' });
    await breakdown.waitFor();
    assert.match(
      await breakdown.innerText(),
      /Text match[\s\S]*Semantic[\s\S]*Recency[\s\S]*Importance[\s\S]*Frequency[\s\S]*Entity match/,
    );
    const chain = page.locator('.summary-list');
    assert.match(await chain.innerText(), /PostgreSQL 16/, 'the supersedes chain lists the older decision');
  });

  it('filters by category and by an entity chip', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await status().filter({ hasText: '46 memories' }).waitFor();
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.locator('.filter-bar').getByLabel('Category').selectOption('procedural');
    await status().filter({ hasText: '2 memories' }).waitFor();
    await rows().filter({ hasText: 'deploy the web app' }).click();
    await page.getByRole('button', { name: 'fly.io' }).click();
    await status().filter({ hasText: '1 memory' }).waitFor();
    assert.equal(await page.getByLabel('Entities').inputValue(), 'fly.io');
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await status().filter({ hasText: '46 memories' }).waitFor();
  });

  it('pins and edits a memory (the edit is saved and re-embedded)', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('kafka partitions');
    await rows().filter({ hasText: 'Kafka' }).first().click();
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Pin' }).click();
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Unpin' }).waitFor();
    assert.equal((await memory(ids.kafka)).pinned, true);
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Memory content').fill('Event ingestion uses Kafka with 48 partitions per topic.');
    await page.getByRole('textbox', { name: 'Tags, comma separated' }).fill('infra, streaming');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.memory-content').filter({ hasText: '48 partitions' }).waitFor();
    const saved = await memory(ids.kafka);
    assert.equal(saved.content, 'Event ingestion uses Kafka with 48 partitions per topic.');
    assert.deepEqual(saved.tags, ['infra', 'streaming']);
  });

  it('promotes a memory to the team layer only after confirmation, and records who did it', async () => {
    await page.getByRole('combobox', { name: 'Promote to layer' }).selectOption({ label: 'Team panel-team' });
    const dialog = page.getByRole('dialog', { name: 'Promote to Team panel-team?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Promote' }).click();
    await page.locator('.toast').filter({ hasText: 'Promoted to the team layer' }).waitFor();
    const promoted = (
      await harness.store.listMemories({
        filter: { user_id: 'team:panel-team' },
        sort: 'created',
        offset: 0,
        limit: 10,
      })
    ).items;
    assert.equal(promoted.length, 1);
    assert.equal(promoted[0].layer, 'team');
    assert.match(promoted[0].content, /48 partitions/);
    assert.equal((promoted[0].metadata.promotion as { promoted_by: string }).promoted_by, USER);
    assert.equal((await memory(ids.kafka)).deleted_at, null, 'the original stays in the user layer');
  });

  it('forgets with Undo, and the trash restores', async () => {
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    assert.notEqual((await memory(ids.kafka)).deleted_at, null);
    await page.getByRole('button', { name: 'Undo' }).click();
    // Restoring shows itself in place: announced to screen readers, and the Undo message goes away.
    await page.getByTestId('announcer').filter({ hasText: 'Restored 1 memory' }).waitFor();
    assert.equal(await page.locator('.toast').count(), 0);
    assert.equal((await memory(ids.kafka)).deleted_at, null);
  });

  it("reads the list once, not twice, after one forget (the host's notification of it is not a second reload)", async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await status().filter({ hasText: '46 memories' }).waitFor();
    let lastRequestAt = Date.now();
    const loads: string[] = [];
    const onRequest = (request: import('playwright-core').Request): void => {
      if (!request.url().endsWith('/api/panel')) return;
      lastRequestAt = Date.now();
      const method = (JSON.parse(request.postData() ?? '{}') as { method?: string }).method ?? '';
      if (method === 'memory/list' || method === 'memory/search') loads.push(method);
    };
    await rows().nth(1).click();
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Forget' }).waitFor();
    page.on('request', onRequest);
    try {
      await page.locator('.detail-toolbar').getByRole('button', { name: 'Forget' }).click();
      await page.getByRole('button', { name: 'Undo' }).waitFor();
      await status().filter({ hasText: '45 memories' }).waitFor();
      // The host announces the forget at once and polls every 200 ms here: a second reload would
      // come within the 150 ms debounce after it. Wait until the panel sent nothing for 1.5 s.
      while (Date.now() - lastRequestAt < 1_500) await page.waitForTimeout(100);
    } finally {
      page.off('request', onRequest);
    }
    try {
      assert.deepEqual(loads, ['memory/list'], 'one list read for one forget');
    } finally {
      await page.getByRole('button', { name: 'Undo' }).click();
      await restoredInPanel();
      await status().filter({ hasText: '46 memories' }).waitFor();
    }
  });

  it('selects several memories and forgets them at once, then restores and purges from the trash', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await status().filter({ hasText: '46 memories' }).waitFor();
    const checks = page.locator('.memory-row .row-check');
    for (let index = 0; index < 3; index++) await checks.nth(index).check();
    await page.getByRole('toolbar', { name: 'Selected memories' }).getByRole('button', { name: 'Forget 3' }).click();
    await status().filter({ hasText: '43 memories' }).waitFor();
    await page.getByRole('button', { name: 'Show trash (forgotten memories)' }).click();
    await status().filter({ hasText: '3 forgotten memories' }).waitFor();
    await checks.nth(0).check();
    await page.getByRole('toolbar', { name: 'Selected memories' }).getByRole('button', { name: 'Restore' }).click();
    await status().filter({ hasText: '2 forgotten memories' }).waitFor();
    await checks.nth(0).check();
    await page
      .getByRole('toolbar', { name: 'Selected memories' })
      .getByRole('button', { name: 'Delete permanently' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete permanently?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await status().filter({ hasText: '1 forgotten memory' }).waitFor();
    const stats = await harness.store.stats(USER);
    assert.equal(stats.deleted, 1);
    await page.getByRole('button', { name: 'Show trash (forgotten memories)' }).click();
    await status().filter({ hasText: '44 memories' }).waitFor();
  });

  it('shows a change made elsewhere without a manual refresh', async () => {
    await harness.core.storeMemory({
      user_id: USER,
      content: 'Stored by the agent while the panel is open.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    // The panel notices the change by polling; the bound is generous so a busy machine cannot fail it.
    await assert.doesNotReject(status().filter({ hasText: '45 memories' }).waitFor({ timeout: 30_000 }));
    await rows().filter({ hasText: 'Stored by the agent' }).waitFor();
  });

  it('shows working memory with its budget and pins, evicts and checkpoints items', async () => {
    await page.getByRole('tab', { name: 'Working' }).click();
    const items = page.getByRole('list', { name: /Working memory items/ });
    await items.waitFor();
    assert.equal(await items.locator('li').count(), 3);
    const meter = page.getByRole('meter', { name: 'Token budget used' });
    assert.equal(await meter.getAttribute('aria-valuemax'), '2000');
    // When the session started; the harness serves it as the window's own session.
    assert.match(
      ((await page.locator('.session-line').textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      /^Session started \d{2}:\d{2} · this window$/,
    );
    assert.ok(Number(await meter.getAttribute('aria-valuenow')) > 0);
    await page.getByRole('button', { name: 'Pin item 2' }).click();
    await page.getByRole('button', { name: 'Unpin item 2' }).waitFor();
    await page.getByRole('button', { name: 'Evict item 3' }).click();
    // The toast can show before the list re-renders: wait for the list's own state, not the toast.
    await page.getByRole('button', { name: 'Evict item 3' }).waitFor({ state: 'detached' });
    assert.equal(await items.locator('li').count(), 2);
    assert.equal(
      (await harness.core.getWorkingMemory({ session_id: SESSION })).items.length,
      2,
      'the item left working memory, not only the list',
    );
    await page.getByRole('button', { name: 'Checkpoint now' }).click();
    await page.locator('.toast').filter({ hasText: 'Checkpoint saved' }).waitFor();
  });

  it('previews the context the agent would get, with token costs and reasons', async () => {
    await page.getByRole('tab', { name: 'Context preview' }).click();
    await page.getByLabel('Question to preview context for').fill('how do I deploy the web app?');
    await page.getByRole('spinbutton', { name: 'Token budget' }).fill('600');
    await page.getByRole('button', { name: 'Preview' }).click();
    const items = page.getByRole('list', { name: /Context items/ });
    await items.waitFor();
    assert.match(await page.locator('.preview-summary').innerText(), /of 600 tokens/);
    assert.match(await items.innerText(), /fly deploy/);
    assert.match(await items.innerText(), /\d+ tokens/);
    assert.equal((await memory(ids.deploy)).access_count, 0, 'the preview did not log access');
    // For a person: the text without the agent's <memory …> framing, reasons in the question's words
    // (not the index's stems: "deploi"), the budget as a bar; the raw text one click away.
    const shown = await items.innerText();
    assert.doesNotMatch(shown, /<\/?memory\b/);
    assert.match(shown, /Why: Matches “deploy”, “web”, “app”\./);
    assert.doesNotMatch(shown, /\bdeploi\b/);
    const bar = page.getByRole('meter', { name: 'Token budget filled' });
    assert.equal(await bar.getAttribute('aria-valuemax'), '600');
    assert.ok(Number(await bar.getAttribute('aria-valuenow')) > 0);
    const first = items.locator('.preview-item').first();
    await first.getByText('Raw text the agent receives').click();
    assert.match(await first.locator('.raw-item pre').innerText(), /^<memory source="long_term"/);
    // At side-bar width the full text wraps: nothing is clipped or scrolls sideways.
    await page.setViewportSize({ width: 297, height: 720 });
    try {
      const clipped = await page.evaluate(
        `[...document.querySelectorAll('.preview-text, .preview-item .why, .preview-item')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
          .map((e) => e.className)`,
      );
      assert.deepEqual(clipped, []);
    } finally {
      await page.setViewportSize({ width: 1000, height: 720 });
    }
  });

  it('shows the overview with counts, charts and backend health', async () => {
    const agent = await harness.core.getRelevantContext(
      { session_id: SESSION, user_id: USER, query: 'fly deploy web app', token_budget: 600 },
      { allowMissingSession: true },
    );
    const chat = await harness.core.recall({ user_id: USER, query: 'billing database' }, { tool: 'chat_participant' });
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.locator('.stat-grid').waitFor();
    assert.equal(await page.locator('svg.chart').count(), 2);
    const overviewText = await page.locator('.overview-tab').innerText();
    assert.match(overviewText, /sqlite[\s\S]*healthy · answered in (< 0\.1|\d+(\.\d)?) ms/);
    assert.doesNotMatch(overviewText, /\d\.\d{3,} ms/, 'latency is rounded');
    // Every recall-activity point names its day: the last 24 hours cross midnight.
    const activity = await page.locator('svg.chart').nth(1).getAttribute('aria-label');
    assert.match(activity ?? '', /^Recalls per hour: [A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}/);
    // No silent context: the latest recalls, who asked, and the memories each one handed out.
    const recalls = page.getByRole('list', { name: 'Recent recalls, newest first' });
    const latest = await recalls.locator('.recall-entry').first().innerText();
    assert.match(latest, /^@memory chat · “?billing database”?/);
    assert.ok(chat.memories.length > 0);
    for (const memory of chat.memories)
      assert.ok(latest.includes(memory.content.split('\n')[0].slice(0, 60)), `${memory.memory_id} listed`);
    const all = await recalls.innerText();
    const packed = agent.context_items.filter((item) => item.memory_id);
    assert.ok(packed.length > 0);
    assert.match(all, /Agent context · “?fly deploy web app”?/);
    for (const item of packed) {
      const [stored] = await harness.core.getMemories(USER, [item.memory_id!]);
      assert.ok(
        all.includes(stored!.content.split('\n')[0].slice(0, 60)),
        `packed ${item.memory_id} listed by its own text`,
      );
    }
    assert.doesNotMatch(all, /<memory/);
    assert.doesNotMatch(
      all,
      /postgres billing|kafka partitions|how do I deploy the web app/,
      "the panel's own searches and previews are not listed",
    );
  });

  it('is usable with the keyboard alone', async () => {
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(activeElementAttribute('aria-label')), 'Search memories');
    await page.keyboard.type('redis session cache');
    await page.keyboard.press('Enter');
    await status()
      .filter({ hasText: /result/ })
      .waitFor();
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(activeElementAttribute('role')), 'listbox');
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Memory details' }).waitFor();
    assert.equal(await page.evaluate(ACTIVE_ELEMENT_TEXT), 'Pin', 'focus moved to the first action');
    await page.keyboard.press('Enter');
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Unpin' }).waitFor();
    assert.equal((await memory(ids.redis)).pinned, true);
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(activeElementAttribute('role')), 'listbox', 'Escape returns focus to the list');
    await page.keyboard.press('Delete');
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    assert.notEqual((await memory(ids.redis)).deleted_at, null);
    await page.keyboard.press('Control+z');
    await restoredInPanel();
    assert.equal((await memory(ids.redis)).deleted_at, null);
    await page.keyboard.press('Alt+2');
    assert.equal(await page.getByRole('tab', { name: 'Working' }).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Alt+1');
  });

  it('keeps the keys it handles from VS Code: Alt+2 switches tabs, Delete then Ctrl+Z keeps the search, Escape clears a selection', async () => {
    const search = page.getByRole('searchbox', { name: 'Search memories' });
    await page.keyboard.press('Alt+1');
    await search.fill('');
    await search.click();
    await page.evaluate(INSTALL_KEY_FORWARDER);
    // Typed key by key, so the field has an undo history for a forwarded Ctrl+Z to revert.
    await page.keyboard.type('kafka partitions');
    await page.keyboard.press('Enter');
    const results = status().filter({ hasText: /^\d+ results?/ });
    await results.waitFor();
    await rows().filter({ hasText: 'Kafka' }).first().waitFor();
    const before = (await status().innerText()).split(' ')[0];
    // Typing in the search box reaches the workbench as in VS Code; from here on, keys the panel handles must not.
    await page.evaluate(`${FORWARDED_KEYS} = []`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Delete');
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    assert.notEqual((await memory(ids.kafka)).deleted_at, null);
    await page.keyboard.press('Control+z');
    await restoredInPanel();
    assert.equal((await memory(ids.kafka)).deleted_at, null);
    await rows().filter({ hasText: 'Kafka' }).first().waitFor();
    assert.equal(await search.inputValue(), 'kafka partitions', 'the search box keeps the query');
    // Without Kafka the search found nothing, so the list re-reads from an empty state ("Loading…")
    // after the restore: the count is read once the re-read has answered.
    assert.equal((await settledResultCount()).split(' ')[0], before, 'and its results');

    // Escape clears a selection first; the list keeps focus.
    await page.keyboard.press('Space');
    await page.getByRole('toolbar', { name: 'Selected memories' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('toolbar', { name: 'Selected memories' }).waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.memory-row.selected').count(), 0);
    assert.equal(await page.evaluate(activeElementAttribute('role')), 'listbox');

    await page.keyboard.press('Alt+2');
    assert.equal(await page.getByRole('tab', { name: 'Working' }).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('F1');
    const forwarded = (await page.evaluate(FORWARDED_KEYS)) as string[];
    assert.ok(
      forwarded.includes('F1'),
      `a key the panel does not handle still reaches the workbench: ${forwarded.join(', ')}`,
    );
    for (const handled of ['Alt+1', 'Alt+2', 'Control+z', 'Delete', 'Escape', 'ArrowDown', ' '])
      assert.ok(!forwarded.includes(handled), `${handled} was forwarded to the workbench: ${forwarded.join(', ')}`);
  });

  it("announces an undo only once the host has restored the memory, not with an earlier undo's words", async () => {
    const search = page.getByRole('searchbox', { name: 'Search memories' });
    const announcer = page.getByTestId('announcer');
    const forgetKafka = async () => {
      await page.keyboard.press('Alt+1');
      await search.fill('kafka partitions');
      await search.press('Enter');
      await rows().filter({ hasText: 'Kafka' }).first().waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Delete');
      await page.getByRole('button', { name: 'Undo' }).waitFor();
    };
    // A first undo leaves "Restored 1 memory." in the announcer.
    await forgetKafka();
    await page.keyboard.press('Control+z');
    await announcer.filter({ hasText: 'Restored 1 memory' }).waitFor();
    await rows().filter({ hasText: 'Kafka' }).first().waitFor();
    // The second undo's request is held at the network until the test lets it through.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let restoresHeld = 0;
    await page.route('**/api/panel', async (route) => {
      if ((route.request().postDataJSON() as { method?: string }).method === 'memory/restore') {
        restoresHeld++;
        await held;
      }
      await route.continue();
    });
    try {
      await forgetKafka();
      await page.keyboard.press('Control+z');
      await page.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
      await page.waitForFunction(`document.querySelector('[data-testid="announcer"]')?.textContent === ''`);
      assert.equal(restoresHeld, 1, 'the restore is on its way');
      assert.notEqual((await memory(ids.kafka)).deleted_at, null, 'and not stored yet');
      assert.equal(await announcer.innerText(), '', 'nothing is announced while the host has not answered');
      release();
      await restoredInPanel();
      assert.equal((await memory(ids.kafka)).deleted_at, null);
    } finally {
      release();
      await page.unroute('**/api/panel');
    }
  });

  it('keeps what the user typed when a save is refused, and shows the error with its code', async () => {
    await page.keyboard.press('Alt+1');
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('deploy web app fly');
    await rows().filter({ hasText: 'fly deploy' }).first().click();
    await page.locator('.detail-toolbar').getByRole('button', { name: 'Edit' }).click();
    const typed = 'To deploy the web app run npm run build, then fly deploy --remote-only from the repository root.';
    await page.getByLabel('Memory content').fill(typed);
    // 51 tags: one more than a memory may carry, so the host refuses the whole change.
    await page
      .getByRole('textbox', { name: 'Tags, comma separated' })
      .fill(Array.from({ length: 51 }, (_, index) => `tag${index}`).join(', '));
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('.toast-error');
    await error.waitFor();
    assert.match(await error.innerText(), /\(INVALID_[A-Z_]+\)|tags/i);
    assert.equal(await page.getByLabel('Memory content').inputValue(), typed, 'the editor stays open with the text');
    assert.notEqual((await memory(ids.deploy)).content, typed, 'nothing was saved');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.toast-error').getByRole('button', { name: 'Dismiss message' }).click();
    await page.getByRole('button', { name: 'Close memory (Escape)' }).click();
  });

  it('puts focus on the list, on its active row, when the panel is shown', async () => {
    await page.evaluate(FOCUS_WINDOW);
    assert.equal(await page.evaluate(activeElementAttribute('role')), 'listbox');
    const active = (await page.evaluate(activeElementAttribute('aria-activedescendant'))) as string | null;
    assert.match(active ?? '', /^row-\d+$/, 'a row is active, so arrow keys and Enter act on it');
  });

  it('keeps every control labelled for screen readers', async () => {
    const unlabelled = await page.evaluate(UNLABELLED_CONTROLS);
    assert.deepEqual(unlabelled, []);
  });

  it('renders in light, dark and high-contrast themes (screenshots)', async () => {
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('postgres billing');
    await rows().filter({ hasText: 'PostgreSQL 17' }).first().click();
    await page.getByRole('region', { name: 'Score breakdown' }).waitFor();
    for (const theme of Object.keys(THEMES) as ThemeName[]) {
      await applyTheme(page, theme);
      await page.screenshot({ path: join(SCREENSHOTS, `memories-${theme}.png`) });
    }
    await applyTheme(page, 'dark');
    await page.setViewportSize({ width: 380, height: 720 });
    await page.getByRole('button', { name: 'Close memory (Escape)' }).click();
    await page.screenshot({ path: join(SCREENSHOTS, 'sidebar-dark.png') });
    for (const tab of ['Working', 'Overview', 'Context preview'] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(150);
      await page.screenshot({
        path: join(SCREENSHOTS, `${tab.toLowerCase().replace(' ', '-')}-dark.png`),
        fullPage: true,
      });
    }
    assert.ok(existsSync(join(SCREENSHOTS, 'memories-high-contrast.png')));
  });

  it('fits a 297 px side bar in light, dark and high-contrast themes: one row of tabs, nothing overflows, badges keep their width (screenshots)', async () => {
    // A memory whose row carries every badge: a long category, a changed anchor, many entities.
    const anchor = anchorFor('src/invoice.ts', 'export function computeTotal() {\n  return Math.round(vat);\n}', {
      start: 1,
      end: 3,
    });
    const wide = await harness.core.storeMemory({
      user_id: USER,
      content: 'computeTotal must round VAT per line, not per invoice',
      memory_category: 'semantic',
      memory_subtype: 'project',
      importance: 0.6,
      entities: ['computeTotal', 'VAT', 'invoice-service', 'rounding'],
      metadata: { anchors: [{ ...anchor, status: 'changed' }] },
    });
    await page.setViewportSize({ width: 297, height: 720 });
    await page.keyboard.press('Alt+1');
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('');
    await status()
      .filter({ hasText: /memories/ })
      .waitFor();
    const filters = page.getByRole('button', { name: /^Filters/ });
    if ((await filters.getAttribute('aria-expanded')) !== 'true') await filters.click();
    await page.locator('.filter-bar').getByLabel('Category').selectOption('semantic');
    await status()
      .filter({ hasText: /memories/ })
      .waitFor();
    assert.match(await filters.innerText(), /Filters\s*1/, 'the disclosure counts the active filters');
    const selectors = [...PANEL_LAYOUT_SELECTORS, '.virtual-list'];
    for (const theme of Object.keys(THEMES) as ThemeName[]) {
      await applyTheme(page, theme);
      assert.deepEqual(await page.evaluate(overflowingScript(selectors)), [], `overflow in the ${theme} theme`);
      assert.equal(await page.evaluate(TAB_ROWS), 1, 'the tabs sit on one row');
      const badges = (await page.evaluate(CLIPPED_BADGES)) as { clipped: string[]; measured: Record<string, number> };
      assert.deepEqual(badges.clipped, [], `badges narrower than their text in the ${theme} theme`);
      assert.ok(
        badges.measured.code >= 1 && badges.measured['category-semantic'] >= 1,
        JSON.stringify(badges.measured),
      );
      const facts = page.locator('.memory-row', { hasText: 'computeTotal must round' }).locator('.row-facts');
      assert.ok(
        await facts.evaluate((element) => element.scrollWidth > element.clientWidth),
        'the facts, not the badges, gave way',
      );
      await page.screenshot({ path: join(SCREENSHOTS, `sidebar-297-${theme}.png`) });
    }
    await harness.core.forgetMemory({ user_id: USER, memory_id: wide.memory_id });
    assert.equal((await page.locator('.list-status .user').innerText()).trim(), USER);
    await page.locator('.filter-bar').getByLabel('Category').selectOption('');
    await filters.click();
    await page.setViewportSize({ width: 1000, height: 720 });
  });

  it('raised no script errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
