import type { MemoryRecord } from '../domain/records.ts';
import { FACT_TAG } from '../facts/factModel.ts';

/**
 * Memories the automatic lifecycle jobs (consolidation, pruning) leave alone: pinned ones are the
 * user's emphasis and structured facts have their own one-value-per-key history.
 */
export function isProtected(memory: MemoryRecord): boolean {
  return memory.pinned || memory.tags.includes(FACT_TAG);
}
