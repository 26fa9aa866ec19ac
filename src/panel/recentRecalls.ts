import type { RecalledRef } from '../core/memoryEvents.ts';
import type { RecentRecall } from '../shared/panelProtocol.ts';

const KEPT = 20;

/**
 * The last recalls of this user served by the memory process, newest first, with the memories
 * each one handed out: what an agent, the chat participant or a search actually received, so
 * no context reaches an agent unseen. Kept in memory only, like the recall-activity chart.
 */
export class RecentRecalls {
  private readonly entries: RecentRecall[] = [];

  record(at: Date, recall: { tool: string; query: string; memories: readonly RecalledRef[] }): void {
    this.entries.unshift({ at: at.toISOString(), tool: recall.tool, query: recall.query, memories: [...recall.memories] });
    if (this.entries.length > KEPT) this.entries.length = KEPT;
  }

  list(): RecentRecall[] {
    return this.entries.map((entry) => ({ ...entry, memories: [...entry.memories] }));
  }
}
