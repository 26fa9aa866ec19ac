import * as vscode from 'vscode';
import { FORGET_ALL_CONFIRMATION, type ForgetAllOutput } from '../../core/api/longTermApi.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm, offer } from './feedback.ts';
import { forgetSeveral } from './forgetSeveral.ts';
import { memoryPickItem, pickMemory } from './pickMemory.ts';
import type { ForgetMemoryOutput } from '../../core/api/longTermApi.ts';

export async function forgetCommand(deps: CommandDeps, memoryId?: string): Promise<boolean> {
  const { core, identity } = await deps.host.ready();
  const id = memoryId ?? (await pickMemory(deps, 'Forget which memory?'))?.memory_id;
  if (!id) return false;
  await core.forgetMemory({ memory_id: id, user_id: identity.userId });
  deps.log.info(`Forgot ${id}.`);
  void vscode.window.showInformationMessage('Memory forgotten.', 'Undo').then(async (choice) => {
    if (choice !== 'Undo') return;
    try {
      await core.restoreMemory(identity.userId, id);
      deps.log.info(`Restored ${id}.`);
    } catch (error) {
      deps.log.error('Cannot restore the memory', error);
    }
  });
  return true;
}

/** Forget Memories…: several memories picked at once, forgotten in one call, with Undo. */
export async function forgetSeveralCommand(
  deps: CommandDeps,
  memoryIds?: string[],
): Promise<ForgetMemoryOutput | undefined> {
  const { core, identity } = await deps.host.ready();
  return forgetSeveral(
    core,
    identity,
    {
      pickMany: async (memories, preselected, title) => {
        const picked = await vscode.window.showQuickPick(
          memories.map((memory) => ({ ...memoryPickItem(memory), picked: preselected.has(memory.memory_id) })),
          { title, canPickMany: true, matchOnDescription: true, matchOnDetail: true },
        );
        return picked?.map((item) => item.memory.memory_id);
      },
      nothingToForget: () => void vscode.window.showInformationMessage('No memories yet.'),
      offerUndo: (message, undo) => offer(deps.log, message, { label: 'Undo', run: undo }),
      log: deps.log,
    },
    memoryIds,
  );
}

export async function forgetAllCommand(deps: CommandDeps): Promise<ForgetAllOutput | undefined> {
  const { core, identity } = await deps.host.ready();
  const stats = await core.stats(identity.userId);
  const choice = await vscode.window.showWarningMessage(
    `Forget all ${stats.memories} memories of user "${identity.userId}" in ${stats.backend.kind === 'sqlite' ? 'the embedded store' : stats.backend.kind}?`,
    {
      modal: true,
      detail:
        'This deletes every memory, session and working-memory item of this user, in every project. It cannot be undone. Export first if you may want them back.',
    },
    'Forget All',
  );
  if (choice !== 'Forget All') return undefined;
  const result = await core.forgetAllMemories({ user_id: identity.userId, confirmation: FORGET_ALL_CONFIRMATION });
  deps.log.info(`Forgot everything: ${JSON.stringify(result)}`);
  // The modal was the moment to decide; afterwards a status bar line is enough.
  confirm(deps.log, `Forgot ${result.memories_deleted} memories.`);
  // The window's session went with everything else; start it again so capture keeps working.
  await deps.host.applySessionSettings();
  deps.capture.resend();
  return result;
}
