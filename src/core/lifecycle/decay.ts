import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { requireId } from '../validation.ts';
import { listAllMemories } from './listAll.ts';
import { YieldEvery } from '../util/yieldEvery.ts';

/**
 * Ebbinghaus forgetting (seed 003): retention R = e^(-t/S), t = days since the memory was last
 * accessed, S = stability in days. Retention is written to decay_factor; importance itself and
 * the memory are never changed or deleted here, so decay is reversible by access (which resets t).
 */

export interface DecayOptions {
  /** Base stability S in days before the factors below (default 30). */
  base_stability_days?: number;
  dry_run?: boolean;
}

export interface DecayOutput {
  decayed: number;
  unchanged: number;
  pinned_reset: number;
  memories_considered: number;
  dry_run: boolean;
}

const DAY_MS = 86_400_000;
/** Changes smaller than this are not written: they would only churn the store. */
const MIN_CHANGE = 0.001;

const TYPE_FACTOR: Record<string, number> = { semantic: 1.5, procedural: 1.3, preference: 1.3, episodic: 1 };

/** Stability in days: more accesses, a more durable type, or user emphasis all slow forgetting. */
export function stabilityDays(memory: MemoryRecord, baseDays: number): number {
  const accessBoost = 1 + 0.3 * Math.log(1 + memory.access_count);
  const typeFactor = TYPE_FACTOR[memory.memory_category] ?? 1;
  const emphasised = memory.metadata.user_marked_important === true || memory.importance >= 0.9;
  return baseDays * accessBoost * typeFactor * (emphasised ? 2 : 1);
}

/** Retention in [0, 1] at `now`; pinned memories never decay. */
export function retention(memory: MemoryRecord, now: Date, baseDays = 30): number {
  if (memory.pinned) return 1;
  const days = Math.max(0, (now.getTime() - Date.parse(memory.last_accessed)) / DAY_MS);
  return Math.round(Math.exp(-days / stabilityDays(memory, baseDays)) * 10_000) / 10_000;
}

export async function applyDecay(deps: CoreDeps, userId: string, options: DecayOptions = {}): Promise<DecayOutput> {
  const user = requireId(userId, 'user_id');
  const base = options.base_stability_days ?? 30;
  const now = deps.clock.now();
  const { items } = await listAllMemories(
    deps.store,
    { user_id: user, state: 'live', include_superseded: true },
    50_000,
  );
  let decayed = 0;
  let unchanged = 0;
  let pinnedReset = 0;
  const changed: string[] = [];
  const slice = new YieldEvery(256);
  for (const memory of items) {
    await slice.step();
    const factor = retention(memory, now, base);
    if (Math.abs(factor - memory.decay_factor) < MIN_CHANGE) {
      unchanged++;
      continue;
    }
    if (memory.pinned) pinnedReset++;
    else decayed++;
    changed.push(memory.memory_id);
    // updated_at is left alone: decay is bookkeeping, not an edit a person made.
    if (!options.dry_run) {
      await deps.store.changeMemory({
        user_id: memory.user_id,
        memory_id: memory.memory_id,
        change: { set: { decay_factor: factor } },
        at: null,
        if_forgotten: 'drop',
      });
    }
  }
  if (!options.dry_run && changed.length > 0)
    deps.events.emit({ type: 'memory', user_id: user, memory_ids: changed, change: 'updated' });
  return {
    decayed,
    unchanged,
    pinned_reset: pinnedReset,
    memories_considered: items.length,
    dry_run: options.dry_run === true,
  };
}
