import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { ReadyMemory } from '../runtime/memoryHost.ts';
import { type BridgeSpec } from './clientConfigs.ts';

/**
 * Copies the CLI bundle into global storage so written configurations keep working after the
 * extension updates (its install folder is versioned), and describes how to run it.
 */
export async function prepareBridge(
  context: vscode.ExtensionContext,
  ready: ReadyMemory,
  options: { withProject: boolean },
): Promise<BridgeSpec> {
  const source = join(context.extensionUri.fsPath, 'dist', 'cli.js');
  const directory = join(ready.dataDir, 'bridge');
  // .cjs: the bundle is CommonJS and global storage has no package.json saying so.
  const target = join(directory, 'fml-cli.cjs');
  await mkdir(directory, { recursive: true });
  const [from, to] = await Promise.all([
    stat(source),
    stat(target).catch((error: NodeJS.ErrnoException) => {
      // Not copied yet is the normal first run; anything else is a real problem.
      if (error.code === 'ENOENT') return null;
      throw error;
    }),
  ]);
  if (!to || to.size !== from.size || to.mtimeMs < from.mtimeMs) await copyFile(source, target);
  return {
    nodePath: process.execPath,
    cliPath: target,
    dataDir: ready.dataDir,
    userId: ready.identity.userId,
    ...(options.withProject && ready.identity.scopeProjectId ? { projectId: ready.identity.scopeProjectId } : {}),
  };
}
