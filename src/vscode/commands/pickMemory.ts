import * as vscode from 'vscode';
import type { MemoryRecord } from '../../core/domain/records.ts';
import type { CommandDeps } from './commandDeps.ts';

/** A quick pick over the most recent memories of the current scope. */
export async function pickMemory(deps: CommandDeps, title: string): Promise<MemoryRecord | undefined> {
  const { core, identity } = await deps.host.ready();
  const { items } = await core.listMemories({
    filter: { user_id: identity.userId, ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}) },
    sort: 'recency',
    offset: 0,
    limit: 200,
  });
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No memories yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    items.map((memory) => ({
      label: firstLine(memory.content),
      description: `${memory.memory_category}/${memory.memory_subtype}`,
      detail: memory.created_at.slice(0, 16).replace('T', ' '),
      memory,
    })),
    { title, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.memory;
}

export function firstLine(text: string, max = 100): string {
  const line = text.split('\n', 1)[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
