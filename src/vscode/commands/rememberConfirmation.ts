import * as vscode from 'vscode';
import type { StoreMemoryOutput } from '../../core/api/longTermApi.ts';
import type { MemoryCategory, MemorySubtype } from '../../core/domain/taxonomy.ts';
import { changeCategoryCommand } from './changeCategoryCommand.ts';
import type { CommandDeps } from './commandDeps.ts';

interface Classification {
  memory_category: MemoryCategory;
  memory_subtype: MemorySubtype;
}

const OPEN = 'Open';
const RECLASSIFY = 'Change Category…';
const UNDO = 'Undo';

/**
 * Says what was remembered and how it was classified, with the actions a person wants right then:
 * open it, correct the offline classifier's guess, or take it back. Not awaited by the command, so
 * the notification never holds the command open.
 */
export function confirmRemembered(
  deps: CommandDeps,
  userId: string,
  result: StoreMemoryOutput,
  classification: Classification,
): void {
  const action = result.similar_existing?.action;
  if (action === 'skipped_duplicate' || action === 'updated_existing') {
    const verb = action === 'skipped_duplicate' ? 'Already remembered' : 'Updated an existing memory';
    void vscode.window.showInformationMessage(`${verb} (${label(classification)}).`, OPEN).then((choice) => {
      if (choice === OPEN) return openStored(deps, userId, result.memory_id);
      return undefined;
    }, report(deps));
    return;
  }
  void vscode.window
    .showInformationMessage(`Remembered as ${label(classification)}.`, OPEN, RECLASSIFY, UNDO)
    .then(async (choice) => {
      if (choice === OPEN) await openStored(deps, userId, result.memory_id);
      if (choice === RECLASSIFY) await changeCategoryCommand(deps, result.memory_id);
      if (choice === UNDO) {
        const { core } = await deps.host.ready();
        // Taking back a memory stored a moment ago leaves nothing behind, not even in the trash.
        await core.forgetMemory({ memory_id: result.memory_id, user_id: userId, hard_delete: true });
        void vscode.window.setStatusBarMessage('$(check) Memory removed', 4000);
      }
    }, report(deps));
}

async function openStored(deps: CommandDeps, userId: string, memoryId: string): Promise<void> {
  const { core } = await deps.host.ready();
  await deps.documents.open(await core.getMemory(userId, memoryId));
}

function label(classification: Classification): string {
  return `${classification.memory_category}/${classification.memory_subtype}`;
}

function report(deps: CommandDeps): (error: unknown) => void {
  return (error) => deps.log.error('Acting on the remembered memory failed', error);
}
