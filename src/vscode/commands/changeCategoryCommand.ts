import * as vscode from 'vscode';
import { TAXONOMY, type MemoryCategory, type MemorySubtype } from '../../core/domain/taxonomy.ts';
import type { CommandDeps } from './commandDeps.ts';
import { pickMemory } from './pickMemory.ts';

export interface Classification {
  memory_category: MemoryCategory;
  memory_subtype: MemorySubtype;
}

/**
 * Memory: Change Memory Category… — corrects the offline classifier's guess. Reached from the
 * Remember confirmation, the @memory /remember answer, and the palette (then it asks which memory).
 */
export async function changeCategoryCommand(deps: CommandDeps, memoryId?: string): Promise<Classification | undefined> {
  const { core, identity } = await deps.host.ready();
  const memory = memoryId
    ? await core.getMemory(identity.userId, memoryId)
    : await pickMemory(deps, 'Change the category of which memory?');
  if (!memory) return undefined;
  const current = { memory_category: memory.memory_category, memory_subtype: memory.memory_subtype as MemorySubtype };
  const picked = await pickClassification(current);
  if (!picked) return undefined;
  await core.updateMemory({ memory_id: memory.memory_id, user_id: identity.userId, ...picked });
  deps.log.info(`Reclassified ${memory.memory_id} as ${label(picked)}.`);
  void vscode.window.setStatusBarMessage(`$(check) Memory is now ${label(picked)}`, 4000);
  return picked;
}

async function pickClassification(current: Classification): Promise<Classification | undefined> {
  const items = (Object.keys(TAXONOMY) as MemoryCategory[]).flatMap((category) =>
    (TAXONOMY[category] as readonly MemorySubtype[]).map((subtype) => ({
      label: `${category}/${subtype}`,
      description: category === current.memory_category && subtype === current.memory_subtype ? 'current' : '',
      classification: { memory_category: category, memory_subtype: subtype },
    })),
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: "Change the memory's category",
    placeHolder: `Now ${label(current)}`,
  });
  return picked?.classification;
}

export function label(classification: Classification): string {
  return `${classification.memory_category}/${classification.memory_subtype}`;
}
