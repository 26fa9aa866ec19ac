import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

const CREDS = 'export function secretThing() {\n  return "hunter2-outside";\n}\n';

/**
 * Issue 28.5: a workspace holding `vendor -> /outside` (or a file link to a file outside) must
 * not let an agent's anchor read outside the folder, nor tell by its error what exists there.
 */
describe('anchors stay inside the workspace, symbolic links included', { skip: process.platform === 'win32' }, () => {
  let base: string;
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'fml-anchor-links-'));
    const outside = join(base, 'outside');
    const workspace = join(base, 'workspace');
    mkdirSync(outside);
    mkdirSync(join(workspace, 'app'), { recursive: true });
    writeFileSync(join(outside, 'creds.ts'), CREDS);
    writeFileSync(join(workspace, 'app', 'real.ts'), 'export function realThing() {\n  return 1;\n}\n');
    symlinkSync(outside, join(workspace, 'vendor'), 'dir');
    symlinkSync(join(outside, 'creds.ts'), join(workspace, 'linked.ts'), 'file');
    // A link that stays inside the folder is an ordinary file of the workspace.
    symlinkSync(join(workspace, 'app', 'real.ts'), join(workspace, 'alias.ts'), 'file');
    test = await createTestCore({ workspace: nodeWorkspaceFiles(workspace) });
    ({ client, close } = await connectClient({ core: test.core, defaultUserId: 'dev' }));
  });
  after(async () => {
    await close();
    await test.cleanup();
    rmSync(base, { recursive: true, force: true });
  });

  const refusal = (anchor: string) =>
    callError(client, 'store_memory', {
      content: 'A note about the credentials helper.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchor,
    });
  /** The message with the anchor's own path taken out, to compare answers for different paths. */
  const shape = (message: string, path: string): string => message.split(path).join('<path>');

  for (const [what, path] of [
    ['a directory link to a folder outside', 'vendor/creds.ts'],
    ['a file link to a file outside', 'linked.ts'],
  ] as const) {
    it(`${what} reads as a missing file, whatever exists behind it`, async () => {
      const missing = await refusal('app/not-there.ts#secretThing');
      for (const anchor of [`${path}#secretThing`, `${path}#noSuchSymbol`, `${path}:1-2`]) {
        const error = await refusal(anchor);
        assert.equal(error.code, missing.code, anchor);
        assert.equal(
          shape(error.message, path),
          shape(missing.message, 'app/not-there.ts'),
          `${anchor}: the same answer as for a file that does not exist`,
        );
        assert.doesNotMatch(error.message, /hunter2|secretThing\b.*declared|no symbol/);
      }
      const missingBehindLink = await refusal('vendor/nothing-here.ts#secretThing');
      assert.equal(
        shape(missingBehindLink.message, 'vendor/nothing-here.ts'),
        shape(missing.message, 'app/not-there.ts'),
      );
    });
  }

  it('`..` paths are refused the same way whether the target exists or not', async () => {
    const existing = await refusal('../outside/creds.ts#secretThing');
    const absent = await refusal('../outside/absent.ts#secretThing');
    assert.equal(existing.code, 'INVALID_INPUT');
    assert.equal(shape(existing.message, 'creds.ts'), shape(absent.message, 'absent.ts'));
  });

  it('a link that stays inside the workspace still anchors', async () => {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      content: 'realThing returns one.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchor: 'alias.ts#realThing',
    });
    assert.ok(stored.memory_id);
  });
});
