// The empty store at the side bar's width (issue #32, point 7): the text is read in full, not cut
// off, in every theme, and it offers the next steps: Remember…, Import…, and how agents store
// memories. The host is an editor here (it runs editor actions), as in VS Code.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { skipUnlessAvailable } from '../support/prerequisites.ts';
import { ASSETS_DIR, type PanelHarness, startPanelHarness } from './panelHarness.ts';
import { applyThemeScript } from './pageScripts.ts';
import { THEME_BODY_CLASS, THEMES, type ThemeName } from './vscodeThemes.ts';

const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'dist', 'panel-screenshots');
const skip = skipUnlessAvailable(
  'the empty-state browser suite',
  !existsSync(CHROMIUM)
    ? `chromium not found at ${CHROMIUM}; install it with "apt-get install -y chromium" (or set FML_CHROMIUM)`
    : !existsSync(join(ASSETS_DIR, 'main.js'))
      ? 'the panel is not built; run "npm run build" (dist/webview/main.js missing)'
      : null,
);

/** Every element of the empty state whose content is cut: wider than its box, or past the window's edge. */
const CUT_OFF = `(() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('.empty-state, .empty-state *')]
    .filter((element) => element.getClientRects().length > 0)
    .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > width + 0.5)
    .map((element) => element.tagName.toLowerCase() + ': ' + (element.textContent || '').slice(0, 40));
})()`;

describe('the empty state at side-bar width in a real browser', { skip }, () => {
  let harness: PanelHarness;
  let browser: Browser;
  let page: Page;
  const actions: string[] = [];

  before(async () => {
    const { chromium } = await import('playwright-core');
    harness = await startPanelHarness({
      runEditorAction: async (action) => {
        actions.push(action);
      },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 297, height: 720 } });
    await page.goto(harness.pageUrl);
    await page.getByRole('region', { name: 'No memories yet' }).waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('shows its whole text at 297 px in light, dark and high contrast, offering Remember…, Import… and how agents store memories', async () => {
    const empty = page.getByRole('region', { name: 'No memories yet' });
    for (const theme of Object.keys(THEMES) as ThemeName[]) {
      await page.evaluate(applyThemeScript(THEMES[theme], THEME_BODY_CLASS[theme]));
      assert.deepEqual(await page.evaluate(CUT_OFF), [], `cut off in the ${theme} theme`);
      await page.screenshot({ path: join(SCREENSHOTS, `empty-state-297-${theme}.png`) });
    }
    const text = (await empty.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /How agents store memories/i);
    assert.match(text, /store_memory/);
    await empty.getByRole('button', { name: 'Remember…' }).click();
    await empty.getByRole('button', { name: 'Import…' }).click();
    await waitUntil(() => actions.length >= 2);
    assert.deepEqual(actions, ['remember', 'import']);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
