import * as vscode from 'vscode';
import { anchorsOf } from '../../core/anchors/anchorModel.ts';
import { keepForCurrentCode } from '../../core/anchors/anchorUpdates.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import type { CommandDeps } from '../commands/commandDeps.ts';
import { confirm } from '../commands/feedback.ts';
import type { AnchoredMemories } from './anchoredMemories.ts';

type Choice = 'keep' | 'update' | 'forget' | 'skip';

/**
 * Walks the memories whose code changed or is gone, one at a time, opened read-only beside the
 * code: keep (still true: re-anchored on the code as it is), update (edit its text, then re-anchor)
 * or forget. Returns what was done, for the tests. Nothing is ever forgotten without the user's choice.
 */
export async function reviewStaleMemoriesCommand(deps: CommandDeps): Promise<Record<Choice, number>> {
  const done: Record<Choice, number> = { keep: 0, update: 0, forget: 0, skip: 0 };
  const anchored = deps.anchors;
  if (!anchored) {
    confirm(deps.log, 'Anchored memories need a folder open on disk.');
    return done;
  }
  await anchored.ready();
  const stale = anchored.stale();
  if (stale.length === 0) {
    confirm(deps.log, 'No stale memories: the code every anchored memory refers to is as it was stored.');
    return done;
  }
  for (const [index, memory] of stale.entries()) {
    await deps.documents.open(memory);
    const choice = await pick(memory, index, stale.length);
    if (choice === undefined) break;
    await apply(deps, anchored, memory, choice);
    done[choice]++;
  }
  return done;
}

async function pick(memory: MemoryRecord, index: number, total: number): Promise<Choice | undefined> {
  const where = anchorsOf(memory.metadata)
    .filter((anchor) => anchor.status === 'changed' || anchor.status === 'gone')
    .map(
      (anchor) =>
        `${anchor.symbol?.name ?? `${anchor.current?.path ?? anchor.path}:${anchor.lines.start}`} ${anchor.status}`,
    )
    .join(', ');
  const items: Array<vscode.QuickPickItem & { choice: Choice }> = [
    { label: '$(check) Keep', description: 'Still true of the code as it is now', choice: 'keep' },
    {
      label: '$(edit) Update…',
      description: 'Edit its text, then anchor it on the code as it is now',
      choice: 'update',
    },
    { label: '$(trash) Forget', description: 'No longer true', choice: 'forget' },
    { label: '$(debug-step-over) Skip', description: 'Decide later', choice: 'skip' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Stale memory ${index + 1} of ${total}: ${where}`,
    placeHolder: memory.content.slice(0, 120),
    ignoreFocusOut: true,
  });
  return picked?.choice;
}

async function apply(
  deps: CommandDeps,
  anchored: AnchoredMemories,
  memory: MemoryRecord,
  choice: Choice,
): Promise<void> {
  const readLines = (path: string, start: number, end: number) => anchored.checker.codeAt(path, start, end);
  const at = new Date().toISOString();
  switch (choice) {
    case 'skip':
      return;
    case 'keep':
      await anchored.saveAnchors(memory, await keepForCurrentCode(anchorsOf(memory.metadata), readLines, at));
      return;
    case 'update': {
      const content = await vscode.window.showInputBox({
        title: 'Update memory',
        value: memory.content,
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() === '' ? 'A memory needs some text.' : null),
      });
      if (content === undefined) return;
      await anchored.saveAnchors(
        memory,
        await keepForCurrentCode(anchorsOf(memory.metadata), readLines, at),
        content.trim(),
      );
      return;
    }
    case 'forget': {
      const { core, identity } = await deps.host.ready();
      await core.forgetMemory({
        memory_id: memory.memory_id,
        user_id: identity.userId,
        ...(memory.layer === 'project' ? { layer: 'project', project_id: memory.scope_id } : {}),
      });
      deps.log.info(`Forgot stale memory ${memory.memory_id}.`);
    }
  }
}
