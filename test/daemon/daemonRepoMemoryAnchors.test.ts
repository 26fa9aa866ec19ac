import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AnchorChecker } from '../../src/core/anchors/anchorChecker.ts';
import { anchorsOf } from '../../src/core/anchors/anchorModel.ts';
import { createRuntime } from '../../src/runtime/createRuntime.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { recordingLogger } from '../support/recordingLogger.ts';
import { openWindow, removeDaemonDataDir, sqliteConfig, waitUntil } from './daemonHarness.ts';

const PROJECT = 'acme';
const PARTITION = `project:${PROJECT}`;
const MEMORY_ID = 'mem_0f9e8d7c6b5a1a2b3c4d';
const BILLING =
  'export function charge(order: { total: number }, card: { debit(amount: number): void }): void {\n  card.debit(order.total);\n}\n';
const FILE = `---
id: ${MEMORY_ID}
category: semantic
subtype: project
tags: ["billing"]
anchors: ["src/billing.ts#charge"]
created: 2026-11-01T09:00:00.000Z
updated: 2026-11-01T09:00:00.000Z
version: 1
---
charge debits the card once for the order total, never per line item.
`;

/** A workspace as a teammate's pull leaves it: code, and one `.memory/` file anchored to it. */
function pulledWorkspace(): string {
  const workspace = mkdtempSync(join(tmpdir(), 'fml-daemon-repo-ws-'));
  mkdirSync(join(workspace, 'src'));
  writeFileSync(join(workspace, 'src', 'billing.ts'), BILLING);
  mkdirSync(join(workspace, '.memory'));
  writeFileSync(join(workspace, '.memory', 'charge-debits-the-card-5a1a2b3c4d.md'), FILE);
  return workspace;
}

/**
 * Issue #34 in the editor: the memory process (the daemon) syncs a window's `.memory/` folder. A
 * file it imports has its anchors resolved in that folder, exactly as `fml serve --workspace`
 * resolves them in-process: same anchor, same fingerprint, reported by recall, and written back
 * unchanged when the store side changes the memory.
 */
describe('background memory process: anchors of shared .memory/ files', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) {
      await removeDaemonDataDir(dir);
    }
  });

  it(
    'resolves an imported file’s anchors in the shared folder, as the in-process sync does',
    { timeout: 90_000 },
    async () => {
      // In-process: fml serve --workspace DIR --repo-memories.
      const inProcessDir = mkdtempSync(join(tmpdir(), 'fml-repo-inproc-'));
      const inProcessWorkspace = pulledWorkspace();
      dirs.push(inProcessDir, inProcessWorkspace);
      const runtime = await createRuntime(
        { ...sqliteConfig(inProcessDir), workspaceDir: inProcessWorkspace, defaultProjectId: PROJECT },
        recordingLogger(),
      );
      let expected;
      try {
        const report = await runtime.shareProjectMemories({ workspace_dir: inProcessWorkspace, project_id: PROJECT });
        assert.deepEqual(
          report.resolutions.map((resolution) => resolution.kind),
          ['import'],
        );
        [expected] = anchorsOf((await runtime.getMemories(PARTITION, [MEMORY_ID]))[0]?.metadata ?? {});
      } finally {
        await runtime.close();
      }
      const fresh = await new AnchorChecker(nodeWorkspaceFiles(inProcessWorkspace)).create({
        path: 'src/billing.ts',
        symbol: 'charge',
      });
      assert.equal(expected?.fingerprint, fresh.fingerprint, 'in-process: resolved in the workspace');

      // The editor's memory process, asked by a window to share its folder.
      const dataDir = mkdtempSync(join(tmpdir(), 'fml-daemon-repo-'));
      const workspace = pulledWorkspace();
      dirs.push(dataDir, workspace);
      const window = await openWindow(dataDir, { userId: 'bob', config: { defaultProjectId: PROJECT } });
      try {
        const report = await window.core.shareProjectMemories({ workspace_dir: workspace, project_id: PROJECT });
        assert.deepEqual(
          report.resolutions.map((resolution) => [resolution.kind, resolution.memory_id]),
          [['import', MEMORY_ID]],
        );
        assert.deepEqual(report.diagnostics, []);
        const [memory] = await window.core.getMemories(PARTITION, [MEMORY_ID]);
        const anchors = anchorsOf(memory?.metadata ?? {});
        assert.equal(anchors.length, 1, 'the daemon resolved the file’s anchor');
        const [anchor] = anchors;
        assert.deepEqual(
          [anchor.path, anchor.symbol, anchor.lines, anchor.fingerprint, anchor.tokens, anchor.size],
          [expected?.path, expected?.symbol, expected?.lines, expected?.fingerprint, expected?.tokens, expected?.size],
          'the same anchor as the in-process sync',
        );
        assert.ok(memory?.entities.includes('file:src/billing.ts'), 'found by the file filter');

        // Recall through the daemon reports it, and "what do we know about this file" finds it.
        const recalled = await window.core.recall({
          user_id: 'bob',
          query: 'how is the card charged',
          project_id: PROJECT,
          entities: ['file:src/billing.ts'],
        });
        const found = recalled.memories.find((candidate) => candidate.memory_id === MEMORY_ID);
        assert.deepEqual(
          found?.anchors?.map((report) => [report.path, report.symbol?.name]),
          [['src/billing.ts', 'charge']],
        );

        // The store side changes the memory (an agent pins it): the file is written again, its anchor kept.
        const path = join(workspace, '.memory', readdirSync(join(workspace, '.memory'))[0]);
        await window.core.updateMemory({
          user_id: 'bob',
          layer: 'project',
          project_id: PROJECT,
          memory_id: MEMORY_ID,
          pinned: true,
        });
        await window.core.shareProjectMemories({ workspace_dir: workspace, project_id: PROJECT });
        await waitUntil(() => /\npinned: true\n/.test(readFileSync(path, 'utf8')), 'the file to be rewritten');
        assert.match(readFileSync(path, 'utf8'), /\nanchors: \["src\/billing\.ts#charge"\]\n/);
        await window.core.stopSharingProjectMemories(workspace);
      } finally {
        window.connection.close();
      }
    },
  );
});
