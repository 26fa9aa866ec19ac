import type { CoreDeps } from '../coreDeps.ts';
import { repositoryOriginOf } from '../domain/repositoryOrigin.ts';
import { sharedPartition } from '../layers/layerScope.ts';
import type { InstructionFile, RepoMemoryFiles } from '../ports/repoMemoryFiles.ts';
import { findSecrets } from '../safety/secretDetector.ts';
import { renderAgentsSection, spliceAgentsSection } from './agentsSection.ts';

/** Where the section goes and how many tokens it may take. */
export interface AgentsFileTarget {
  path: InstructionFile;
  budget: number;
}

export interface AgentsFileResult {
  path: InstructionFile;
  /** False when the file already held this section: nothing was written. */
  changed: boolean;
  included: number;
  omitted: number;
  tokens: number;
}

/** Pinned memories beyond this many are not considered: a section is a few hundred tokens. */
const MAX_PINNED = 200;

/**
 * Writes the marked section of an instructions file from the project's pinned memories, most
 * important first (issue #34 point 5). The file is written only when the section differs, and
 * only between the markers (spliceAgentsSection); a memory holding a credential is left out.
 */
export async function updateAgentsFile(
  deps: CoreDeps,
  files: RepoMemoryFiles,
  projectId: string,
  target: AgentsFileTarget,
): Promise<AgentsFileResult> {
  const page = await deps.store.listMemories({
    filter: {
      user_id: sharedPartition('project', projectId),
      scopes: [{ layer: 'project', scope_id: projectId }],
      pinned: true,
    },
    sort: 'importance',
    offset: 0,
    limit: MAX_PINNED,
  });
  const memories = page.items
    .filter((memory) => findSecrets(memory.content).length === 0)
    .map((memory) => ({ content: memory.content, file: repositoryOriginOf(memory.metadata)?.path ?? null }));
  const section = renderAgentsSection(memories, target.budget, deps.tokens);
  const existing = await files.readInstructions(target.path);
  const next = spliceAgentsSection(existing, section.text);
  const changed = next !== existing;
  if (changed) await files.writeInstructions(target.path, next);
  return { path: target.path, changed, included: section.included, omitted: section.omitted, tokens: section.tokens };
}
