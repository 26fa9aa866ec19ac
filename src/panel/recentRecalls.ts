import type { RecalledRef } from '../core/memoryEvents.ts';
import type { RecentRecall } from '../shared/panelProtocol.ts';

const KEPT = 20;
/**
 * Recalls that hand nothing to anyone but the person looking (the panel's and Search Memories'
 * search as you type, one per keystroke; the panel's Context preview) or that only link
 * memories: listing them would bury what the agents received.
 */
const NOT_HANDED_OUT: ReadonlySet<string> = new Set([
  'panel_search',
  'search_memories',
  'context_preview',
  'link_memories',
]);

/**
 * The last recalls of this user served by the memory process, newest first, with the memories
 * each one handed out: what an agent or the chat participant actually received, so no context
 * reaches an agent unseen. Kept in memory only, like the recall-activity chart.
 */
export class RecentRecalls {
  private readonly entries: RecentRecall[] = [];

  record(at: Date, recall: { tool: string; query: string; memories: readonly RecalledRef[] }): void {
    if (NOT_HANDED_OUT.has(recall.tool)) return;
    this.entries.unshift({
      at: at.toISOString(),
      tool: recall.tool,
      query: recall.query,
      memories: [...recall.memories],
    });
    if (this.entries.length > KEPT) this.entries.length = KEPT;
  }

  list(): RecentRecall[] {
    return this.entries.map((entry) => ({ ...entry, memories: [...entry.memories] }));
  }
}
