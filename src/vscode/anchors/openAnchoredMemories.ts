import * as vscode from 'vscode';
import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import type { CommandDeps } from '../commands/commandDeps.ts';
import { confirm } from '../commands/feedback.ts';

/** The CodeLens's command: one memory opens read-only; several are offered in a pick first. Returns the ids opened. */
export async function openAnchoredMemoriesCommand(deps: CommandDeps, memoryIds: string[]): Promise<string[]> {
  if (!Array.isArray(memoryIds) || memoryIds.length === 0)
    throw new MemoryError('INVALID_INPUT', 'Open Anchored Memories needs the ids of the memories to open.');
  const memories = memoryIds
    .map((id) => deps.anchors?.get(id))
    .filter((memory): memory is MemoryRecord => memory !== undefined);
  if (memories.length === 0) {
    confirm(deps.log, 'These memories no longer exist: they were forgotten.');
    return [];
  }
  let chosen = memories[0];
  if (memories.length > 1) {
    const picked = await vscode.window.showQuickPick(
      memories.map((memory) => ({
        label: memory.content.split('\n')[0].slice(0, 100),
        description: `${memory.memory_category}/${memory.memory_subtype}`,
        memory,
      })),
      { title: `${memories.length} memories about this code` },
    );
    if (!picked) return [];
    chosen = picked.memory;
  }
  await deps.documents.open(chosen);
  return [chosen.memory_id];
}
