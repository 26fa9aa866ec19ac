import type { CoreSurface } from '../../core/coreSurface.ts';
import type { ForgetMemoryOutput } from '../../core/api/longTermApi.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import { recentMemories } from './recentMemories.ts';

/** What the palette flow needs of the editor; vscode-free so the flow is tested without it. */
export interface ForgetSeveralUi {
  /** A multi-select pick over these memories, `preselected` ticked; the ids chosen, or undefined when dismissed. */
  pickMany(
    memories: readonly MemoryRecord[],
    preselected: ReadonlySet<string>,
    title: string,
  ): Promise<readonly string[] | undefined>;
  /** The user has no memory to forget in this scope. */
  nothingToForget(): void;
  /** Reports what was forgotten with an Undo action, which calls `undo`. */
  offerUndo(message: string, undo: () => Promise<void>): void;
  log: { info(message: string): void; error(message: string, error: unknown): void };
}

export type ForgetSeveralCore = Pick<CoreSurface, 'listMemories' | 'forgetMemory' | 'restoreMemories'>;

/**
 * Forget Memories…: pick several memories at once, forget them in one call (one store write, as
 * the panel's selection does), and offer Undo, which restores the same ones in one call.
 * `preselected`: ids ticked when the pick opens (a command invoked with ids).
 */
export async function forgetSeveral(
  core: ForgetSeveralCore,
  identity: { userId: string; scopeProjectId: string | undefined },
  ui: ForgetSeveralUi,
  preselected: readonly string[] = [],
): Promise<ForgetMemoryOutput | undefined> {
  const memories = await recentMemories(core, identity);
  if (memories.length === 0) {
    ui.nothingToForget();
    return undefined;
  }
  const picked = await ui.pickMany(memories, new Set(preselected), 'Forget which memories?');
  if (picked === undefined || picked.length === 0) return undefined;
  const result = await core.forgetMemory({ memory_ids: [...picked], user_id: identity.userId });
  const forgotten = result.forgotten;
  ui.log.info(`Forgot ${forgotten.length} memories: ${forgotten.join(', ')}.`);
  ui.offerUndo(forgottenMessage(forgotten.length, result.not_found.length), async () => {
    try {
      const restored = await core.restoreMemories(identity.userId, forgotten);
      ui.log.info(`Restored ${restored.length} memories.`);
    } catch (error) {
      ui.log.error('Cannot restore the memories', error);
    }
  });
  return result;
}

function forgottenMessage(forgotten: number, gone: number): string {
  const main = forgotten === 1 ? 'Forgot 1 memory.' : `Forgot ${forgotten} memories.`;
  // Erased or removed elsewhere between the pick and the forget.
  return gone === 0 ? main : `${main} ${gone === 1 ? '1 was' : `${gone} were`} already gone.`;
}
