import type { Logger } from '../core/ports/logger.ts';
import type { RepoWorkspace } from '../core/ports/repoMemoryFiles.ts';
import { nodeRepoMemoryFiles } from './nodeRepoMemoryFiles.ts';
import { nodeWorkspaceFiles } from './nodeWorkspaceFiles.ts';

/**
 * A workspace folder on disk whose project memories are shared (issue #34): its `.memory/` files
 * and its code, where their anchors resolve. The one adapter both fml serve and the editor's memory
 * process hand the core, so a file's anchors resolve the same way in either.
 */
export function nodeRepoWorkspace(workspaceDir: string, options: { logger: Logger }): RepoWorkspace {
  return { memoryFiles: nodeRepoMemoryFiles(workspaceDir, options), codeFiles: nodeWorkspaceFiles(workspaceDir) };
}
