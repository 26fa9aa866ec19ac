import type { Logger } from './ports/logger.ts';

/** What changed, so open panels and status bars refresh without polling the core. */
export type MemoryEvent =
  | {
      type: 'memory';
      user_id: string;
      memory_ids: string[];
      change: 'created' | 'updated' | 'deleted' | 'restored' | 'purged';
    }
  | { type: 'working'; user_id: string; session_id: string }
  | { type: 'user-cleared'; user_id: string }
  | { type: 'external'; token: string }
  | { type: 'recall'; user_id: string; query: string; returned: number; tool: string; memories: RecalledRef[] };

/**
 * A memory a recall handed out, as the panel's "recent recalls" lists it: no silent context, the
 * user can see which memories an agent (or the chat, or a search) received.
 */
export interface RecalledRef {
  memory_id: string;
  /** The memory's first line, shortened; enough to recognise it without another read. */
  summary: string;
  layer?: string;
}

const SUMMARY_CHARS = 100;

export function recalledRef(memory: { memory_id: string; content: string; layer?: string }): RecalledRef {
  return {
    memory_id: memory.memory_id,
    summary: summaryLine(memory.content),
    ...(memory.layer ? { layer: memory.layer } : {}),
  };
}

/** A memory's first line, shortened to `max` characters: how lists name a memory. */
export function summaryLine(content: string, max = SUMMARY_CHARS): string {
  const line = content.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

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
