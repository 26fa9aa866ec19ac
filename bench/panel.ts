/**
 * Memory panel latency at scale: time to first render of the list and of a search result, with
 * 100,000 memories in a SQLite store, measured in Debian's chromium against the real HTTP host.
 * Also reports the host-side answer times (PanelController, no browser) for the same requests.
 *
 *   node bench/panel.ts [memories] [runs]          (npm run bench:panel)
 *
 * Browser figures run from the user's action to the first painted row: page navigation start for
 * the list, the Enter key for a search (the search box's typing debounce is bypassed by Enter).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { startHttpServer } from '../src/http/httpServer.ts';
import { createPanelRoutes } from '../src/panel/httpPanelRoutes.ts';
import { PanelController } from '../src/panel/panelController.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { SeededRandom, syntheticMemory } from './syntheticCorpus.ts';

const MEMORIES = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 15);
const USER = 'bench-user';
const TOKEN = 'bench-panel-token';
const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
const ASSETS = join(import.meta.dirname, '..', 'dist', 'webview');
const QUERIES = [
  'postgres migration timeout',
  'redis cache retry',
  'deploy staging rollback',
  'auth token session',
  'kafka queue worker',
  'react bundle vite',
  'docker image registry',
  'lint format prettier',
  'incident outage alert',
  'schema column index',
  'nginx proxy gateway',
  'jest vitest test',
  'terraform cluster node',
  'getUserById handler',
  'release branch merge',
];

const MARKS_SCRIPT = `
  window.__bench = {};
  new MutationObserver(() => {
    const marks = window.__bench;
    if (marks.firstRow === undefined && document.querySelector('.memory-row:not(.loading-row)')) marks.firstRow = performance.now();
    if (marks.searchStart !== undefined && marks.searchRow === undefined && document.querySelector('.memory-row .score')) marks.searchRow = performance.now();
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target.matches('.search-input')) {
      window.__bench.searchStart = performance.now();
      window.__bench.searchRow = undefined;
    }
  }, true);
`;

/**
 * Polls an expression in the page. waitForFunction would compile it with eval, which the panel's
 * CSP forbids; evaluate runs through the debugger protocol. Timing comes from in-page marks, so
 * the polling interval does not affect the figures.
 */
async function until(
  page: { evaluate<T>(expression: string): Promise<T> },
  expression: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) throw new Error(`bench:panel: timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value: number): string => `${value.toFixed(1)} ms`;

if (!existsSync(join(ASSETS, 'main.js'))) {
  console.error('bench:panel: the panel is not built; run "npm run build" first.');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'fml-bench-panel-'));
const store = new SqliteMemoryStore({ dataDir });
const core = new MemoryCore({ store });
await core.open();
try {
  const seedStart = performance.now();
  const random = new SeededRandom(7);
  const now = Date.now();
  for (let index = 0; index < MEMORIES; index++) {
    // Spread over a year so recency sorting and date filters see realistic spans.
    await store.insertMemory(
      syntheticMemory(random, USER, index, new Date(now - Math.floor(random.next() * 365 * 86_400_000))),
      null,
    );
  }
  console.log(
    `seeded ${MEMORIES.toLocaleString()} memories in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const controller = new PanelController({
    core: core,
    userId: () => USER,
    sessionId: () => undefined,
    host: 'browser',
    log: (message) => console.error(message),
  });
  let id = 1;
  const time = async (method: string, params: unknown): Promise<number> => {
    const start = performance.now();
    const response = await controller.handle({ kind: 'request', id: id++, method, params });
    if (!response.ok) throw new Error(`${method}: ${response.error.code}: ${response.error.message}`);
    return performance.now() - start;
  };
  await time('memory/list', { filter: {}, sort: 'recency', offset: 0, limit: 200 });
  const hostList: number[] = [];
  const hostSearch: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    hostList.push(
      await time('memory/list', { filter: {}, sort: run % 2 ? 'importance' : 'recency', offset: 0, limit: 200 }),
    );
    hostSearch.push(
      await time('memory/search', { query: QUERIES[run % QUERIES.length], filter: {}, sort: 'relevance', limit: 100 }),
    );
  }
  console.log(`host  memory/list first page (200 rows): median ${ms(median(hostList))}`);
  console.log(`host  memory/search (100 results):       median ${ms(median(hostSearch))}`);

  if (!existsSync(CHROMIUM)) {
    console.log(
      `browser figures skipped: chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set FML_CHROMIUM)`,
    );
  } else {
    const routes = createPanelRoutes({ controller, token: TOKEN, assetsDir: ASSETS });
    const server = await startHttpServer(
      { core, defaultUserId: USER },
      { port: 0, token: TOKEN, extraRoutes: routes.handle },
    );
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      // Injected by the browser driver, outside the page's CSP: records when rows first appear.
      // In-page code is JavaScript source because the root project has no DOM library.
      await page.addInitScript({ content: MARKS_SCRIPT });
      await page.goto(`${server.url}/?token=${TOKEN}`);
      await page.waitForSelector('.memory-row:not(.loading-row)');
      const listRender: number[] = [];
      const appRender: number[] = [];
      const searchRender: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.evaluate('sessionStorage.clear()');
        await page.reload();
        await until(page, 'window.__bench.firstRow !== undefined');
        listRender.push(await page.evaluate<number>('window.__bench.firstRow'));
        appRender.push(
          await page.evaluate<number>(
            "window.__bench.firstRow - performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/main.js')).responseEnd",
          ),
        );
        const search = page.locator('.search-input');
        await search.fill(QUERIES[run % QUERIES.length]);
        await search.press('Enter');
        await until(page, 'window.__bench.searchRow !== undefined');
        searchRender.push(await page.evaluate<number>('window.__bench.searchRow - window.__bench.searchStart'));
      }
      await page.fill('.search-input', '');
      await page.press('.search-input', 'Enter');
      await until(page, "document.querySelector('.list-status')?.textContent?.includes('memories')");
      // Jump to the middle of the list: the page there loads on demand and only visible rows exist.
      const scrollStart = performance.now();
      await page.evaluate(
        "(() => { const list = document.querySelector('.virtual-list'); list.scrollTop = list.scrollHeight / 2; })()",
      );
      await until(
        page,
        `[...document.querySelectorAll('.memory-row:not(.loading-row)')].some((row) => Number(row.getAttribute('aria-posinset')) > ${Math.floor(MEMORIES / 2) - 100}) && !document.querySelector('.memory-row.loading-row')`,
      );
      const scrollMs = performance.now() - scrollStart;
      const listRows = await page.locator('.memory-row').count();
      console.log(
        `browser first render of the list (navigation -> first row): median ${ms(median(listRender))} over ${RUNS} loads`,
      );
      console.log(
        `browser first render of the list (panel script loaded -> first row): median ${ms(median(appRender))}`,
      );
      console.log(
        `browser first render of a search (Enter -> first result row): median ${ms(median(searchRender))} over ${RUNS} queries`,
      );
      console.log(
        `jump to the middle of ${MEMORIES.toLocaleString()} memories until rows are loaded: ${ms(scrollMs)}; rows in the DOM: ${listRows}`,
      );
    } finally {
      await browser.close();
      routes.dispose();
      await server.close();
    }
  }
  controller.dispose();
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
