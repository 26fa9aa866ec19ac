import * as vscode from 'vscode';
import type { MemoryRecord } from '../../core/domain/records.ts';
import type { CommandDeps } from './commandDeps.ts';
import { recentMemories } from './recentMemories.ts';

/** A quick pick over the most recent memories of the current scope. */
export async function pickMemory(deps: CommandDeps, title: string): Promise<MemoryRecord | undefined> {
  const { core, identity } = await deps.host.ready();
  const items = await recentMemories(core, identity);
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No memories yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    items.map((memory) => memoryPickItem(memory)),
    { title, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.memory;
}

/** One memory as a quick pick row: its first line, its kind, when it was stored. */
export function memoryPickItem(memory: MemoryRecord): vscode.QuickPickItem & { memory: MemoryRecord } {
  return {
    label: firstLine(memory.content),
    description: `${memory.memory_category}/${memory.memory_subtype}`,
    detail: memory.created_at.slice(0, 16).replace('T', ' '),
    memory,
  };
}

export function firstLine(text: string, max = 100): string {
  const line = text.split('\n', 1)[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
