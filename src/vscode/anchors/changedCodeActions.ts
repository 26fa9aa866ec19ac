import * as vscode from 'vscode';
import { anchorsOf, type CodeAnchor } from '../../core/anchors/anchorModel.ts';
import { keepForCurrentCode } from '../../core/anchors/anchorUpdates.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import { quotedCodeOf } from '../../core/editor/selectionMemory.ts';
import type { CommandDeps } from '../commands/commandDeps.ts';
import { confirm } from '../commands/feedback.ts';
import { forgetCommand } from '../commands/forgetCommands.ts';
import type { AnchoredMemories } from './anchoredMemories.ts';
import type { CodeVersions } from './codeVersions.ts';

/**
 * The actions of a CodeLens whose code changed since its memories were stored (issue #32 point 4):
 * Review (what changed, beside the memory), Update (still true: anchored on the code as it is now,
 * its text kept) and Forget (no longer true; Undo offered). Each takes the ids the lens names and
 * asks which one when there are several. Each returns the id it acted on, for the tests.
 */

export async function reviewAnchoredMemoryCommand(
  deps: CommandDeps,
  versions: CodeVersions,
  memoryIds: string[],
): Promise<string | undefined> {
  const memory = await pickChanged(deps, memoryIds, 'Review which memory?');
  if (!memory) return undefined;
  const anchor = changedAnchor(memory);
  const where = anchor ? (anchor.current ?? { path: anchor.path, lines: anchor.lines }) : null;
  const quoted = quotedCodeOf(memory.content);
  const now =
    where && deps.anchors ? await deps.anchors.checker.codeAt(where.path, where.lines.start, where.lines.end) : null;
  if (where && quoted && now !== null) {
    // The code as the memory quoted it against the code as it is: the change the user must judge.
    const title = `${firstLine(memory.content)} · ${where.path}: when stored ↔ now`;
    await vscode.commands.executeCommand(
      'vscode.diff',
      versions.uri(`${memory.memory_id}-stored`, quoted.file, quoted.code),
      versions.uri(`${memory.memory_id}-now`, where.path, now),
      title,
      { preview: true },
    );
  } else if (where) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, where.path));
      const end = Math.min(where.lines.end, document.lineCount) - 1;
      await vscode.window.showTextDocument(document, {
        selection: new vscode.Range(where.lines.start - 1, 0, end, document.lineAt(end).text.length),
        preview: true,
      });
    }
  }
  await deps.documents.open(memory, undefined, vscode.ViewColumn.Beside);
  return memory.memory_id;
}

export async function updateAnchoredMemoryCommand(deps: CommandDeps, memoryIds: string[]): Promise<string | undefined> {
  const memory = await pickChanged(deps, memoryIds, 'Update which memory to the code as it is now?');
  if (!memory || !deps.anchors) return undefined;
  const anchored: AnchoredMemories = deps.anchors;
  const anchors = await keepForCurrentCode(
    anchorsOf(memory.metadata),
    (path, start, end) => anchored.checker.codeAt(path, start, end),
    new Date().toISOString(),
  );
  await anchored.saveAnchors(memory, anchors);
  deps.log.info(`Re-anchored ${memory.memory_id} on the code as it is now.`);
  confirm(deps.log, 'Memory kept, anchored on the code as it is now.');
  return memory.memory_id;
}

export async function forgetAnchoredMemoryCommand(deps: CommandDeps, memoryIds: string[]): Promise<string | undefined> {
  const memory = await pickChanged(deps, memoryIds, 'Forget which memory?');
  if (!memory) return undefined;
  return (await forgetCommand(deps, memory.memory_id)) ? memory.memory_id : undefined;
}

async function pickChanged(deps: CommandDeps, memoryIds: string[], title: string): Promise<MemoryRecord | undefined> {
  if (!Array.isArray(memoryIds) || memoryIds.length === 0)
    throw new MemoryError('INVALID_INPUT', 'This action needs the ids of the memories about the changed code.');
  const memories = memoryIds
    .map((id) => deps.anchors?.get(id))
    .filter((memory): memory is MemoryRecord => memory !== undefined);
  if (memories.length === 0) {
    confirm(deps.log, 'These memories no longer exist: they were forgotten.');
    return undefined;
  }
  if (memories.length === 1) return memories[0];
  const picked = await vscode.window.showQuickPick(
    memories.map((memory) => ({
      label: firstLine(memory.content),
      description: `${memory.memory_category}/${memory.memory_subtype}`,
      memory,
    })),
    { title },
  );
  return picked?.memory;
}

function changedAnchor(memory: MemoryRecord): CodeAnchor | undefined {
  const anchors = anchorsOf(memory.metadata);
  return anchors.find((anchor) => anchor.status === 'changed') ?? anchors[0];
}

function firstLine(content: string): string {
  return content.split('\n')[0].slice(0, 100);
}
