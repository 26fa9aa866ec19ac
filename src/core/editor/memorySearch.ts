import type { RecalledMemory } from '../api/longTermApi.ts';
import type { MemoryCore } from '../memoryCore.ts';

/** What a search needs of the core (in this process or the memory process's proxy). */
type SearchCore = Pick<MemoryCore, 'recall' | 'recordOpened'>;

/**
 * Search-as-you-type over one user's memories (the editor's Search Memories). Each keystroke's
 * results are a preview, so they log no access; opening a result logs one, for that memory only.
 * Otherwise every keystroke would bump the frequency signal of thirty memories and skew ranking.
 */
export class MemorySearch {
  private readonly core: SearchCore;
  private readonly userId: string;
  private lastQuery: string | null = null;

  constructor(core: SearchCore, userId: string) {
    this.core = core;
    this.userId = userId;
  }

  async search(query: string, limit = 30): Promise<RecalledMemory[]> {
    this.lastQuery = query;
    return (
      await this.core.recall({ user_id: this.userId, query, limit }, { logAccess: false, tool: 'search_memories' })
    ).memories;
  }

  /** The user opened this result. */
  async opened(memory: Pick<RecalledMemory, 'memory_id'>): Promise<void> {
    await this.core.recordOpened({
      user_id: this.userId,
      memory_id: memory.memory_id,
      query: this.lastQuery,
      tool: 'search_memories',
    });
  }
}
