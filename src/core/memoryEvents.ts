import type { Logger } from './ports/logger.ts';

/** What changed, so open panels and status bars refresh without polling the core. */
export type MemoryEvent =
  | { type: 'memory'; user_id: string; memory_ids: string[]; change: 'created' | 'updated' | 'deleted' | 'restored' | 'purged' }
  | { type: 'working'; user_id: string; session_id: string }
  | { type: 'user-cleared'; user_id: string }
  | { type: 'external'; token: string }
  | { type: 'recall'; user_id: string; query: string; returned: number };

export type MemoryEventListener = (event: MemoryEvent) => void;

export class MemoryEvents {
  private readonly listeners = new Set<MemoryEventListener>();
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  on(listener: MemoryEventListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  emit(event: MemoryEvent): void {
    for (const listener of this.listeners) {
      // A broken listener (e.g. a closed panel) must not fail the write that triggered it.
      try {
        listener(event);
      } catch (error) {
        this.log.error('a memory event listener failed', error);
      }
    }
  }
}
