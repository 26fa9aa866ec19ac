import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { nodeRepoWorkspace } from '../../src/runtime/nodeRepoWorkspace.ts';
import { recordingLogger } from '../support/recordingLogger.ts';
import { skipUnlessAvailable } from '../support/prerequisites.ts';
import { createTestCore } from '../support/testCore.ts';
import { ASSETS_DIR, type PanelHarness, startPanelHarness, USER } from './panelHarness.ts';
import { activeElementAttribute, CLIPPED_BADGES, UNLABELLED_CONTROLS } from './pageScripts.ts';

const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
const PROJECT = 'acme';
const skip = skipUnlessAvailable(
  'the repository marker browser test',
  !existsSync(CHROMIUM)
    ? `chromium not found at ${CHROMIUM}; install it with "apt-get install -y chromium" (or set FML_CHROMIUM)`
    : !existsSync(join(ASSETS_DIR, 'main.js'))
      ? 'the panel is not built; run "npm run build" (dist/webview/main.js missing)'
      : null,
);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Issue #34: the panel lists the project layer (the "Shared project layer" scope); a memory that
 * lives in the repository's `.memory/` is marked in the list itself (a "repo" badge whose tooltip
 * and the row's accessible name give its file, commit and author), browsing and searching, not only
 * in its detail; a memory kept only in the store is not.
 */
describe('the memory list marks memories that live in the repository (real browser)', { skip }, () => {
  let harness: PanelHarness;
  let browser: Browser;
  let page: Page;
  let workspace: string;
  let sha: string;
  const pageErrors: string[] = [];

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'fml-panel-repo-'));
    git(workspace, 'init', '-q', '-b', 'main');
    writeFileSync(join(workspace, 'README.md'), '# acme\n');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-q', '-m', 'start');
    const testCore = await createTestCore({
      defaultProjectId: PROJECT,
      repoFiles: (dir) => nodeRepoWorkspace(dir, { logger: recordingLogger() }),
    });
    harness = await startPanelHarness({ pollMs: 200, testCore });
    await harness.core.storeMemory({
      user_id: USER,
      content: 'Run the migrations with npm run migrate before starting the server.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      layer: 'project',
      project_id: PROJECT,
    });
    await harness.core.storeMemory({
      user_id: USER,
      content: 'I prefer the migrations dry-run output in JSON.',
      memory_category: 'semantic',
      memory_subtype: 'user',
    });
    const shared = await harness.core.shareProjectMemories({ workspace_dir: workspace, project_id: PROJECT });
    assert.deepEqual(
      shared.resolutions.map((resolution) => resolution.kind),
      ['write-file'],
    );
    git(workspace, 'add', '.memory');
    git(workspace, 'commit', '-q', '-m', 'share the migrations memory');
    sha = git(workspace, 'rev-parse', 'HEAD').trim();
    // The pass after the commit records it (the watcher would; asked here so the test does not wait on it).
    const after = await harness.core.shareProjectMemories({ workspace_dir: workspace, project_id: PROJECT });
    assert.equal(after.provenance_updated, 1);
    await harness.core.stopSharingProjectMemories(workspace);

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    page = await browser.newPage({ viewport: { width: 297, height: 720 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(harness.pageUrl);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  const row = (text: string) => page.locator('.memory-row:not(.loading-row)', { hasText: text }).first();
  const fileName = /\.memory\/run-the-migrations-[a-z0-9-]+\.md/.source;

  it('lists the project layer in the shared scope, the repository memory badged with its file, commit and author', async () => {
    // The default scope lists the user's own memories: no repository memory among them.
    const own = row('I prefer the migrations dry-run');
    await own.waitFor();
    assert.equal(await own.locator('.badge.repository').count(), 0);
    assert.doesNotMatch((await own.getAttribute('aria-label')) ?? '', /repository/);

    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.locator('.filter-bar').getByLabel('Scope').selectOption({ label: 'Shared project layer' });
    const shared = row('Run the migrations');
    await shared.waitFor();
    const badge = shared.locator('.badge.repository');
    assert.equal((await badge.innerText()).trim(), 'repo');
    assert.match(
      (await badge.getAttribute('title')) ?? '',
      new RegExp(`^In the repository: from ${fileName} @${sha.slice(0, 7)} by Alice$`),
    );
    assert.match(
      (await shared.getAttribute('aria-label')) ?? '',
      new RegExp(`project layer, in the repository from ${fileName} @${sha.slice(0, 7)} by Alice: Run the migrations`),
    );
    assert.equal(
      await row('I prefer the migrations dry-run').count(),
      0,
      'the shared scope lists the project layer only',
    );
    // At side-bar width the badge keeps its width (the row's facts give way) and no control lacks a name.
    const badges = (await page.evaluate(CLIPPED_BADGES)) as { clipped: string[]; measured: Record<string, number> };
    assert.deepEqual(badges.clipped, []);
    assert.deepEqual(await page.evaluate(UNLABELLED_CONTROLS), []);
  });

  it('opens the memory read-only with its Repository line, and keeps the mark on search results', async () => {
    await row('Run the migrations').click();
    const detail = page.getByRole('article', { name: 'Memory details' });
    await detail.waitFor();
    assert.match(
      await detail.innerText(),
      new RegExp(`Repository\\s+from ${fileName} @${sha.slice(0, 7)} by Alice · new in store`),
    );
    assert.match(await detail.locator('.shared-note').innerText(), new RegExp(`edit ${fileName} to change it`));
    assert.equal(await detail.locator('[data-action="pin"], [data-action="forget"]').count(), 0);
    await page.keyboard.press('Escape');
    // Read-only in the list too: no checkbox, no pin button, and the forget key does nothing.
    const shared = row('Run the migrations');
    assert.equal(await shared.locator('input.row-check, .row-action').count(), 0);
    assert.equal(await page.evaluate(activeElementAttribute('role')), 'listbox', 'the keys go to the list');
    await page.keyboard.press('Delete');
    await page.keyboard.press('p');
    const [kept] = await harness.store
      .listMemories({
        filter: { user_id: 'project:acme' },
        sort: 'created',
        offset: 0,
        limit: 1,
      })
      .then((result) => result.items);
    assert.equal(kept.deleted_at, null);
    assert.equal(kept.pinned, false);
    assert.equal(await page.locator('.toast').count(), 0, 'no error toast');

    await page.getByRole('searchbox', { name: 'Search memories' }).fill('migrations');
    await page.locator('.memory-row:not(.loading-row) .score').first().waitFor();
    assert.equal(await row('Run the migrations').locator('.badge.repository').count(), 1);
    assert.match(
      (await row('Run the migrations').getAttribute('aria-label')) ?? '',
      /in the repository from \.memory\//,
    );
  });

  it('raised no script errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
