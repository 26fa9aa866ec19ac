import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';
import { backendConfigFromEnv } from '../runtime/backendSelection.ts';
import { createRuntime } from '../runtime/createRuntime.ts';
import { agentsTargetOf, workspaceProjectId } from '../runtime/repoMemories.ts';
import { defaultDataDir } from '../runtime/runtimeConfig.ts';
import { USAGE } from './usage.ts';

/** --workspace must name an existing folder: a typo would otherwise report every anchor gone. */
export function requireWorkspaceDir(value: string): string {
  const dir = resolve(value);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new MemoryError('INVALID_INPUT', `--workspace ${value}: no such folder.`);
  return dir;
}

/** fml export --agents-md: the section written once from the store as it is. */
export async function runExportAgentsMd(values: {
  'agents-md'?: boolean;
  workspace?: string;
  project?: string;
  'data-dir'?: string;
  backend?: string;
  file?: string;
  budget?: string;
}): Promise<void> {
  if (!values['agents-md'])
    throw new MemoryError('INVALID_INPUT', `fml export writes one thing so far: pass --agents-md.\n\n${USAGE}`);
  if (values.workspace === undefined)
    throw new MemoryError('INVALID_INPUT', '--agents-md writes into a workspace: add --workspace DIR.');
  const target = agentsTargetOf(values);
  const workspaceDir = requireWorkspaceDir(values.workspace);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const core = await createRuntime({
    dataDir,
    backend: backendConfigFromEnv(dataDir, values.backend),
    embeddings: { kind: 'none' },
  });
  try {
    const projectId = values.project ?? (await workspaceProjectId(workspaceDir));
    const result = await core.exportAgentsSection({ workspace_dir: workspaceDir, project_id: projectId, ...target });
    console.log(
      `${result.changed ? 'wrote' : 'unchanged:'} ${result.path}: ${result.included} pinned project memor${result.included === 1 ? 'y' : 'ies'} of "${projectId}" (${result.tokens} tokens${result.omitted > 0 ? `; ${result.omitted} left out by the ${target.budget}-token budget` : ''})`,
    );
  } finally {
    await core.close();
  }
}
