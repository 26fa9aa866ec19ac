// Project memories in the repository in a real VS Code (issue #34): the command turns the folder
// setting on, a project memory an agent stores appears as a .memory/ file in the Explorer, the file
// edited in the editor reaches recall, the Memory panel marks the memory as the repository's and
// names its commit and author, and a malformed file is a problem in the Problems view. Its own
// window (a fresh code-server), like anchoredCode.test.ts; skips itself like the main e2e suite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  type Dirs,
  installExtension,
  missingPrerequisite,
  type RunningCodeServer,
  startCodeServer,
  packageExtension,
  launchBrowser,
} from './codeServer.ts';
import { connectMcp, type ExtensionState, readState, waitFor } from './mcpProbe.ts';
import { skipUnlessAvailable } from '../../support/prerequisites.ts';
import { openMemoryRow } from './memoryPanel.ts';
import { Workbench } from './workbench.ts';
import { daemonPid, isRunning } from '../../daemon/daemonHarness.ts';

const EXTENSION_ID = 'firebolt-memory.firebolt-memory-layer';

const skip = skipUnlessAvailable('the repository-memories editor suite (code-server)', missingPrerequisite());

const MIGRATIONS = 'Run the migrations with npm run migrate before starting the billing server.';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe(
  'project memories in the repository in a real VS Code (code-server + chromium)',
  { skip, timeout: 600_000 },
  () => {
    let tmp: string;
    let workspace: string;
    let server: RunningCodeServer;
    let browser: BrowserContext;
    let page: Page;
    let bench: Workbench;
    let state: ExtensionState;
    let mcp: Awaited<ReturnType<typeof connectMcp>>;

    const memoryFiles = (): string[] =>
      existsSync(join(workspace, '.memory'))
        ? readdirSync(join(workspace, '.memory')).filter((name) => name.endsWith('.md'))
        : [];

    /** recall_memories as an agent gets it: the answer text (with provenance) and the memories. */
    const recall = async (
      query: string,
    ): Promise<{ text: string; memories: Array<{ memory_id: string; content: string }> }> => {
      const result = (await mcp.client.callTool({
        name: 'recall_memories',
        arguments: { query, min_similarity: 0, layers: ['project'] },
      })) as {
        isError?: boolean;
        content: Array<{ type: string; text?: string }>;
        structuredContent?: { memories: Array<{ memory_id: string; content: string }> };
      };
      if (result.isError) throw new Error(`recall_memories failed: ${JSON.stringify(result.content)}`);
      return {
        text: result.content.map((part) => part.text ?? '').join('\n'),
        memories: result.structuredContent?.memories ?? [],
      };
    };

    before(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'fml-e2e-repo-'));
      workspace = join(tmp, 'billing-app');
      const probeDir = join(tmp, 'probe');
      const dirs: Dirs = { userData: join(tmp, 'user-data'), extensions: join(tmp, 'extensions') };
      for (const dir of [workspace, probeDir, join(dirs.userData, 'User')]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(workspace, 'README.md'), '# Billing app\n');
      git(workspace, 'init', '-q', '-b', 'main');
      git(workspace, 'add', '.');
      git(workspace, 'commit', '-q', '-m', 'start');
      writeFileSync(
        join(dirs.userData, 'User', 'settings.json'),
        JSON.stringify({
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'security.workspace.trust.enabled': false,
          'git.enabled': false,
        }),
      );
      const vsix = join(tmp, 'extension.vsix');
      packageExtension(vsix);
      installExtension(vsix, dirs);
      server = await startCodeServer(workspace, dirs, {
        FML_E2E: '1',
        FML_E2E_DIR: probeDir,
        FML_DAEMON_GRACE_MS: '3000',
      });
      browser = await launchBrowser(join(tmp, 'chromium'));
      page = browser.pages()[0] ?? (await browser.newPage());
      bench = new Workbench(page);
      await bench.open(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
      state = await waitFor(
        'the extension to activate and open its store',
        () => {
          const current = readState(probeDir);
          return current?.mcpUrl && current.sessionId ? current : null;
        },
        90_000,
      );
      mcp = await connectMcp(state);
    });

    after(async () => {
      await mcp?.close().catch((error: unknown) => console.error('[e2e] closing the MCP client:', error));
      await browser?.close();
      await server?.stop();
      // The memory process outlives the window by its grace period and saves its indexes as it
      // closes: the folder is removed once it has gone, or it would write them into a removed folder.
      const daemon = tmp ? daemonPid(join(tmp, 'user-data', 'User', 'globalStorage', EXTENSION_ID)) : null;
      if (daemon !== null)
        await waitFor('the memory process to exit', () => !isRunning(daemon), 30_000).catch((error: unknown) =>
          console.error('[e2e]', error),
        );
      if (process.env.FML_E2E_KEEP !== '1') rmSync(tmp, { recursive: true, force: true });
      else console.log(`[e2e] kept ${tmp}`);
    });

    it('turns sharing on, writes a stored project memory as a .memory/ file, follows an edit of it into recall, and shows its repository provenance in the panel', async () => {
      assert.ok(state.projectId, 'the window has a project');
      // The command turns the folder's setting on and runs the first sync.
      await bench.runCommand('Memory: Share Project Memories in This Repository');
      await bench.notification(/Project memories are shared in billing-app\/\.memory\//);
      const folderSettings = JSON.parse(readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(folderSettings['fireboltMemory.repoMemories.enabled'], true, 'the folder setting is on');

      // An agent stores a project memory: its file appears in the workspace, and in the Explorer.
      const stored = (await mcp.call('store_memory', {
        content: MIGRATIONS,
        memory_category: 'procedural',
        memory_subtype: 'workflow',
        layer: 'project',
        project_id: state.projectId,
      })) as { memory_id: string };
      const name = await waitFor('the memory’s file in .memory/', () => memoryFiles()[0], 30_000);
      assert.match(name, /^run-the-migrations-with-npm-run-migrate-before-[a-z0-9]+\.md$/);
      const text = readFileSync(join(workspace, '.memory', name), 'utf8');
      assert.match(text, new RegExp(`^---\\nid: ${stored.memory_id}\\ncategory: procedural\\nsubtype: workflow\\n`));
      assert.ok(text.endsWith(`\n${MIGRATIONS}\n`));
      const explorerRow = (label: string) =>
        page.locator('.explorer-folders-view .monaco-list-row', { hasText: label }).first();
      await explorerRow('.memory').waitFor({ timeout: 30_000 });
      await explorerRow('.memory').click();
      await explorerRow(name).waitFor({ timeout: 30_000 });

      // Alice commits the folder: the sync sees the commit, and recall names the file, commit and author.
      git(workspace, 'add', '.memory');
      git(workspace, 'commit', '-q', '-m', 'share the migrations memory');
      const sha = git(workspace, 'rev-parse', 'HEAD').trim().slice(0, 7);
      await waitFor(
        'recall to name the commit and author',
        async () =>
          (await recall('how do I run the migrations')).text.includes(`[from .memory/${name} @${sha} by Alice]`),
        30_000,
      );

      // The file edited in the editor and saved, as a reviewer would: recall returns the edit.
      await bench.openFile(name);
      await bench.focusEditor();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('Then seed the test data with npm run seed.');
      await page.keyboard.press('Control+S');
      const edited = await waitFor(
        'the edit to reach recall',
        async () =>
          (await recall('how do I seed the test data')).memories.find(
            (memory) => memory.memory_id === stored.memory_id && memory.content.includes('npm run seed'),
          ),
        30_000,
      );
      assert.equal(edited.content, `${MIGRATIONS}\nThen seed the test data with npm run seed.`);

      // The Memory panel: the shared project layer lists it, marked as the repository's, with its commit and author.
      await bench.runCommand('Memory: Show Memory Panel');
      const panel = page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
      const filters = panel.getByRole('button', { name: /^Filters/ });
      await filters.waitFor({ timeout: 30_000 });
      if ((await filters.getAttribute('aria-expanded')) !== 'true') await filters.click();
      await panel.locator('.filter-bar').getByLabel('Scope').selectOption({ label: 'Shared project layer' });
      const row = panel.locator('.memory-row:not(.loading-row)', { hasText: 'Run the migrations' }).first();
      await row.waitFor({ timeout: 30_000 });
      const badge = row.locator('.badge.repository');
      assert.equal((await badge.innerText()).trim(), 'repo');
      assert.equal(await badge.getAttribute('title'), `In the repository: from .memory/${name} @${sha} by Alice`);
      assert.match((await row.getAttribute('aria-label')) ?? '', /in the repository from \.memory\//);
      const detail = await openMemoryRow(panel, 'Run the migrations');
      assert.match(
        await detail.innerText(),
        new RegExp(`Repository\\s+from \\.memory/${name.replace('.', '\\.')} @${sha} by Alice · changed in repository`),
      );

      // A malformed file is a problem in the Problems view, with its file; the memory is untouched.
      writeFileSync(
        join(workspace, '.memory', 'broken-note.md'),
        '---\nid: mem_broken0000000001\ncategory: gossip\nsubtype: workflow\n---\nNot a memory.\n',
      );
      await bench.runCommand('Problems: Focus on Problems View');
      const problems = page.locator('.markers-panel');
      await waitFor(
        'the malformed file in the Problems view',
        async () => /broken-note\.md[\s\S]*INVALID_FIELD/.test(await problems.innerText()),
        30_000,
      );
      assert.ok(
        (await recall('how do I seed the test data')).memories.some((memory) => memory.memory_id === stored.memory_id),
      );
    });
  },
);

if (skip) console.log(`[e2e] repository-memories editor suite skipped: ${skip}`);
