import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeRepoMemoryFiles } from '../../src/runtime/nodeRepoMemoryFiles.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { recordingLogger } from '../support/recordingLogger.ts';

/**
 * SECURITY.md, "Anchors reading outside the workspace through symbolic links": a file whose real
 * path is outside the workspace reads as a missing file. The near misses are folders whose path
 * starts with the workspace's own (`workspace-secrets` beside `workspace`, `workspace2`): outside,
 * though a prefix test without the separator takes them for inside. Links to each are tried as a
 * directory and as a file, through read and modified; a link that stays inside still reads. The
 * same holds for the repository's `.memory/` folder and its files (docs/repo-memories.md, "What is
 * shared": links out are reported, never followed).
 */
describe(
  'a link to a folder whose name only starts like the workspace’s reads as missing',
  { skip: process.platform === 'win32' },
  () => {
    let base: string;
    let workspace: string;
    before(() => {
      base = mkdtempSync(join(tmpdir(), 'fml-confinement-'));
      workspace = join(base, 'workspace');
      mkdirSync(join(workspace, 'app'), { recursive: true });
      writeFileSync(join(workspace, 'app', 'real.ts'), 'export const inside = 1;\n');
      symlinkSync(join(workspace, 'app', 'real.ts'), join(workspace, 'alias.ts'), 'file');
      for (const sibling of ['workspace-secrets', 'workspace2', 'workspace.bak']) {
        mkdirSync(join(base, sibling));
        writeFileSync(join(base, sibling, 'creds.ts'), `export const password = "hunter2-${sibling}";\n`);
        symlinkSync(join(base, sibling), join(workspace, `dir-${sibling}`), 'dir');
        symlinkSync(join(base, sibling, 'creds.ts'), join(workspace, `file-${sibling}.ts`), 'file');
      }
    });
    after(() => rmSync(base, { recursive: true, force: true }));

    for (const sibling of ['workspace-secrets', 'workspace2', 'workspace.bak']) {
      it(`${sibling}: links to it, as a folder or a file, read as missing`, async () => {
        const files = nodeWorkspaceFiles(workspace);
        for (const path of [`dir-${sibling}/creds.ts`, `file-${sibling}.ts`]) {
          assert.equal(await files.read(path), null, `${path} was read`);
          assert.equal(await files.modified(path), null, `${path} was stat'ed`);
        }
      });
    }

    it('a link that stays inside the workspace reads', async () => {
      const files = nodeWorkspaceFiles(workspace);
      assert.equal((await files.read('alias.ts'))?.text, 'export const inside = 1;\n');
      assert.equal(typeof (await files.modified('alias.ts')), 'number');
    });
  },
);

describe(
  'a .memory/ folder or file linked to a folder whose name only starts like the workspace’s is not read',
  { skip: process.platform === 'win32' },
  () => {
    let base: string;
    after(() => rmSync(base, { recursive: true, force: true }));
    before(() => {
      base = mkdtempSync(join(tmpdir(), 'fml-repo-confinement-'));
    });
    const MEMORY_FILE = '---\nid: mem_0123456789abcdef0123456789abcdef\n---\nThe deploy password is hunter2.\n';

    it('the .memory folder linked to a sibling folder is reported and none of its files is read', async () => {
      const workspace = join(base, 'folder-link');
      mkdirSync(workspace);
      mkdirSync(join(base, 'folder-link-other', '.memory'), { recursive: true });
      writeFileSync(join(base, 'folder-link-other', '.memory', 'secret-0123456789.md'), MEMORY_FILE);
      symlinkSync(join(base, 'folder-link-other', '.memory'), join(workspace, '.memory'), 'dir');
      const listing = await nodeRepoMemoryFiles(workspace, { logger: recordingLogger() }).list();
      assert.deepEqual(listing.files, []);
      assert.deepEqual(
        listing.problems.map((problem) => problem.path),
        ['.memory'],
      );
    });

    it('a memory file linked to a sibling folder is reported and not read; a file inside is read', async () => {
      const workspace = join(base, 'file-link');
      mkdirSync(join(workspace, '.memory'), { recursive: true });
      mkdirSync(join(base, 'file-link2'));
      writeFileSync(join(base, 'file-link2', 'secret.md'), MEMORY_FILE);
      symlinkSync(join(base, 'file-link2', 'secret.md'), join(workspace, '.memory', 'linked-0123456789.md'), 'file');
      writeFileSync(join(workspace, '.memory', 'own-0123456789.md'), MEMORY_FILE);
      const listing = await nodeRepoMemoryFiles(workspace, { logger: recordingLogger() }).list();
      assert.deepEqual(
        listing.files.map((file) => file.path),
        ['.memory/own-0123456789.md'],
      );
      assert.deepEqual(
        listing.problems.map((problem) => problem.path),
        ['.memory/linked-0123456789.md'],
      );
    });
  },
);
