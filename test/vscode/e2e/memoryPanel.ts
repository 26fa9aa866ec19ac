import type { FrameLocator, Locator } from 'playwright-core';
import { waitFor } from './mcpProbe.ts';

/**
 * Opens the memory whose row shows `hasText` in the Memory panel and returns its detail.
 *
 * The list answers a click by the row at the pointer's position. A click aimed at a row while
 * search results were replacing the list (a loaded machine, stop 37) landed on nothing and the
 * detail never opened; so the list must have settled first (no load under way, and a typed search
 * answered), and a click that opened nothing is tried again.
 */
export async function openMemoryRow(panel: FrameLocator, hasText: string, timeoutMs = 45_000): Promise<Locator> {
  const search = panel.getByRole('searchbox', { name: 'Search memories' });
  const status = panel.locator('.status-text');
  const row = panel.locator('.memory-row:not(.loading-row)').filter({ hasText }).first();
  const detail = panel.getByRole('article', { name: 'Memory details' }).filter({ hasText });
  return waitFor(
    `the memory "${hasText}" to open in the panel`,
    async () => {
      if ((await status.locator('.loading').count()) > 0) return null;
      const searching = (await search.inputValue()).trim() !== '';
      if (searching && !/\bresults?\b/.test(await status.innerText())) return null;
      if (!(await row.isVisible())) return null;
      await row.click({ timeout: 5_000 });
      // waitFor turns a timeout here into another click, and names the last one in its message.
      await detail.waitFor({ timeout: 5_000 });
      return detail;
    },
    timeoutMs,
  );
}

/** What the Memories list shows, for a failure message: the search, the status line, the rows and the empty state. */
export async function describeMemoryList(panel: FrameLocator): Promise<string> {
  const search = await panel.getByRole('searchbox', { name: 'Search memories' }).inputValue();
  const status = await panel.locator('.list-status').innerText();
  const rows = await panel.locator('.memory-row:not(.loading-row)').count();
  const loadingRows = await panel.locator('.memory-row.loading-row').count();
  const emptyState = await panel.locator('.empty-state').isVisible();
  return `search ${JSON.stringify(search)}, status ${JSON.stringify(status)}, ${rows} rows, ${loadingRows} loading rows, empty state ${emptyState ? 'shown' : 'hidden'}`;
}
