import * as vscode from 'vscode';
import type { RecalledMemory } from '../../core/api/longTermApi.ts';
import { MemorySearch } from '../../core/editor/memorySearch.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm } from './feedback.ts';
import { firstLine } from './pickMemory.ts';

interface MemoryItem extends vscode.QuickPickItem {
  memory: RecalledMemory;
}

const COPY: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy' };
const PIN: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('pin'), tooltip: 'Pin / unpin' };
const FORGET: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Forget' };
const TYPING_DELAY_MS = 250;

/** Search as you type; each result previews its text and offers copy, pin and forget. */
export async function searchCommand(deps: CommandDeps, query?: string): Promise<RecalledMemory[]> {
  const { core, identity } = await deps.host.ready();
  const search = new MemorySearch(core, identity.userId);
  const pick = vscode.window.createQuickPick<MemoryItem>();
  pick.title = 'Search Memories';
  pick.placeholder = 'What do you want to recall?';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let results: RecalledMemory[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  const run = async (text: string): Promise<void> => {
    const mine = ++generation;
    if (text.trim() === '') {
      pick.items = [];
      return;
    }
    pick.busy = true;
    try {
      const found = await search.search(text);
      if (mine !== generation) return;
      results = found;
      pick.items = results.map(toItem);
    } catch (error) {
      deps.log.error('Search failed', error);
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };

  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(value), TYPING_DELAY_MS);
  });
  pick.onDidTriggerItemButton(async ({ button, item }) => {
    try {
      if (button === COPY) {
        await vscode.env.clipboard.writeText(item.memory.content);
        confirm(deps.log, 'Memory copied.');
      } else if (button === PIN) {
        const updated = await core.updateMemory({
          memory_id: item.memory.memory_id,
          user_id: identity.userId,
          pinned: !item.memory.pinned,
        });
        item.memory.pinned = updated.memory.pinned;
        pick.items = results.map(toItem);
      } else if (button === FORGET) {
        await core.forgetMemory({ memory_id: item.memory.memory_id, user_id: identity.userId });
        results = results.filter((memory) => memory.memory_id !== item.memory.memory_id);
        pick.items = results.map(toItem);
      }
    } catch (error) {
      deps.log.error('Memory action failed', error);
    }
  });
  const done = new Promise<RecalledMemory[]>((resolve) => {
    pick.onDidAccept(async () => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      if (chosen) {
        await search.opened(chosen.memory);
        await deps.documents.open(chosen.memory, chosen.memory.why_matched);
      }
    });
    pick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      pick.dispose();
      resolve(results);
    });
  });
  pick.show();
  if (query) {
    pick.value = query;
    await run(query);
  }
  return done;
}

function toItem(memory: RecalledMemory): MemoryItem {
  const rest = memory.content.split('\n').slice(1).join(' ').trim();
  return {
    label: `${memory.pinned ? '$(pinned) ' : ''}${firstLine(memory.content)}`,
    description: `${memory.memory_category}/${memory.memory_subtype} · ${memory.relevance_score.toFixed(2)}`,
    detail: rest ? rest.slice(0, 200) : memory.why_matched,
    buttons: [COPY, PIN, FORGET],
    memory,
  };
}
