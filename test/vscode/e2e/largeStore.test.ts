// The editor stays responsive while the memory process builds the index of a 100,000-memory store:
// code-server opens a workspace whose global storage already holds the store, an agent's first recall
// starts (it waits for the index build in the memory process), and a command palette action — which
// runs in the extension host — must complete while that recall is still running.
// FML_E2E_LARGE_SIZE overrides the size (default 100,000). Skips itself like the main e2e suite.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { loadSyntheticStore } from '../../../bench/syntheticCorpus.ts';
import {
  type Dirs,
  installExtension,
  missingPrerequisite,
  type RunningCodeServer,
  startCodeServer,
  packageExtension,
  launchBrowser,
} from './codeServer.ts';
import { connectMcp, readState, waitFor } from './mcpProbe.ts';
import { Workbench } from './workbench.ts';

const skip = missingPrerequisite();
const SIZE = Number(process.env.FML_E2E_LARGE_SIZE ?? 100_000);
const USER = 'e2e-large-user';

describe(
  `the editor while the memory process builds a ${SIZE.toLocaleString()}-memory index (code-server + chromium)`,
  { skip: skip ?? false, timeout: 600_000 },
  () => {
    let tmp: string;
    let server: RunningCodeServer;
    let browser: BrowserContext;
    let bench: Workbench;
    let probeDir: string;

    // Loading 100,000 memories and starting code-server take longer than npm test's default per-hook timeout on a busy box.
    before(
      async () => {
        tmp = mkdtempSync(join(tmpdir(), 'fml-e2e-large-'));
        const workspace = join(tmp, 'big-app');
        probeDir = join(tmp, 'probe');
        const dirs: Dirs = { userData: join(tmp, 'user-data'), extensions: join(tmp, 'extensions') };
        for (const dir of [workspace, probeDir, join(dirs.userData, 'User')]) mkdirSync(dir, { recursive: true });
        writeFileSync(join(workspace, 'README.md'), '# Big app\n');
        writeFileSync(
          join(dirs.userData, 'User', 'settings.json'),
          JSON.stringify({
            'workbench.startupEditor': 'none',
            'workbench.tips.enabled': false,
            'security.workspace.trust.enabled': false,
            'fireboltMemory.user.id': USER,
            'fireboltMemory.scope': 'all',
          }),
        );
        // The pre-built store, where the extension keeps it: the profile's global storage.
        const dataDir = join(dirs.userData, 'User', 'globalStorage', 'firebolt-memory.firebolt-memory-layer');
        await loadSyntheticStore(dataDir, USER, SIZE, 5);

        const vsix = join(tmp, 'extension.vsix');
        packageExtension(vsix);
        installExtension(vsix, dirs);
        server = await startCodeServer(workspace, dirs, {
          FML_E2E: '1',
          FML_E2E_DIR: probeDir,
          FML_DAEMON_GRACE_MS: '3000',
        });
        browser = await launchBrowser(join(tmp, 'chromium'));
        const page = browser.pages()[0] ?? (await browser.newPage());
        bench = new Workbench(page);
        await bench.open(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
      },
      { timeout: 600_000 },
    );

    after(async () => {
      await browser?.close();
      await server?.stop();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('a command palette action completes while the first recall is still running', { timeout: 600_000 }, async () => {
      const state = await waitFor(
        'the extension to open the store',
        () => {
          const current = readState(probeDir);
          return current?.mcpUrl && current.sessionId ? current : null;
        },
        120_000,
      );
      const mcp = await connectMcp(state);
      try {
        let recallDone = false;
        const recall = mcp
          .call('recall_memories', { query: 'deploy the build server cache', min_similarity: 0 })
          .then((answer: { memories: unknown[] }) => {
            recallDone = true;
            return answer;
          });
        await bench.runCommand('Memory: Show Activation Time');
        assert.match(await bench.notification(/activated in/), /activated in [\d.]+ ms/);
        assert.equal(
          recallDone,
          false,
          'the palette action finished while the first recall was still waiting for the index',
        );
        const answer = await recall;
        assert.ok(answer.memories.length > 0, 'the first recall then answers from the whole store');
      } finally {
        await mcp.close();
      }
    });
  },
);
