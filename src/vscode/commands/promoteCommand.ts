import * as vscode from 'vscode';
import type { MemoryLayer } from '../../core/domain/layers.ts';
import { isSharedLayer } from '../../core/api/layerPartitions.ts';
import type { PromoteMemoryOutput } from '../../core/api/layersApi.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm } from './feedback.ts';
import { firstLine, pickMemory } from './pickMemory.ts';
import { settingId } from '../../core/domain/settingIds.ts';

interface LayerChoice {
  layer: MemoryLayer;
  id: string;
  label: string;
  detail: string;
}

/**
 * Memory: Promote Memory to Layer… — the editor's explicit way to share a memory (issue 7:
 * promotion is never silent). Offers only the layers this window has identifiers for.
 */
export async function promoteCommand(
  deps: CommandDeps,
  memoryId?: string,
  toLayer?: MemoryLayer,
): Promise<PromoteMemoryOutput | undefined> {
  const { core, identity } = await deps.host.ready();
  const memory = memoryId
    ? await core.getMemory(identity.userId, memoryId)
    : await pickMemory(deps, 'Promote which memory?');
  if (!memory) return undefined;
  const layers = core.layerDefaults;
  const choices: LayerChoice[] = [
    ...(identity.workspaceProjectId
      ? [
          {
            layer: 'project' as const,
            id: identity.workspaceProjectId,
            label: 'Project',
            detail: `Everyone working on ${identity.workspaceProjectId}`,
          },
        ]
      : []),
    ...(layers.team_id
      ? [
          {
            layer: 'team' as const,
            id: layers.team_id,
            label: 'Team',
            detail: `Team ${layers.team_id} (${settingId('layers.teamId')})`,
          },
        ]
      : []),
    ...(layers.org_id
      ? [
          {
            layer: 'org' as const,
            id: layers.org_id,
            label: 'Organisation',
            detail: `Org ${layers.org_id} (${settingId('layers.orgId')})`,
          },
        ]
      : []),
    ...(layers.company_id
      ? [
          {
            layer: 'company' as const,
            id: layers.company_id,
            label: 'Company',
            detail: `Company ${layers.company_id} (${settingId('layers.companyId')})`,
          },
        ]
      : []),
    ...(layers.agent_id
      ? [
          {
            layer: 'agent' as const,
            id: layers.agent_id,
            label: 'Agent',
            detail: `Only agent ${layers.agent_id} (${settingId('layers.agentId')})`,
          },
        ]
      : []),
    { layer: 'user' as const, id: identity.userId, label: 'User', detail: 'All of your own projects and sessions' },
  ].filter((choice) => !(choice.layer === memory.layer && choice.id === memory.scope_id));

  const target = toLayer
    ? choices.find((choice) => choice.layer === toLayer)
    : (
        await vscode.window.showQuickPick(
          choices.map((choice) => ({ label: choice.label, description: choice.layer, detail: choice.detail, choice })),
          {
            title: `Promote "${firstLine(memory.content, 60)}" to which layer?`,
          },
        )
      )?.choice;
  if (!target) {
    if (toLayer)
      throw new Error(
        `The ${toLayer} layer is not open in this window; set its id in the ${settingId('layers')} settings.`,
      );
    return undefined;
  }
  const reason = toLayer
    ? undefined
    : await vscode.window.showInputBox({
        title: 'Why? (optional, kept with the promotion)',
        prompt: 'Press Enter to skip.',
      });
  if (reason === undefined && !toLayer) return undefined;

  const result = await core.promoteMemory({
    user_id: identity.userId,
    memory_id: memory.memory_id,
    to_layer: target.layer,
    // A shared source is found by its layer and id; the window's own memories need neither.
    ...(isSharedLayer(memory.layer) ? { from_layer: memory.layer, [`${memory.layer}_id`]: memory.scope_id } : {}),
    [`${target.layer}_id`]: target.id,
    ...(reason ? { reason } : {}),
  });
  deps.log.info(
    `Promoted ${memory.memory_id} from the ${memory.layer} layer to ${target.layer} ${target.id}: ${result.action} as ${result.memory_id}.`,
  );
  const verb =
    result.action === 'already_promoted'
      ? 'was already in'
      : result.action === 'merged'
        ? 'merged into an existing memory of'
        : 'promoted to';
  confirm(deps.log, `Memory ${verb} the ${target.layer} layer (${target.id}).`);
  return result;
}
