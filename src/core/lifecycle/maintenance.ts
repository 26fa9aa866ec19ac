import type { CoreDeps } from '../coreDeps.ts';
import { requireId } from '../validation.ts';
import { type ConsolidateOutput, consolidateMemories } from './consolidation.ts';
import { applyDecay, type DecayOutput } from './decay.ts';
import { type PruneOutput, pruneMemories } from './prune.ts';

export interface MaintenanceOptions {
  decay?: { enabled?: boolean; base_stability_days?: number };
  consolidation?: { enabled?: boolean; threshold?: number; max_candidates?: number };
  /** Pruning is off unless a criterion is given: archiving is the one step a user may not expect. */
  prune?: { enabled?: boolean; older_than_days?: number; max_score?: number; limit?: number };
  dry_run?: boolean;
}

export interface MaintenanceReport {
  user_id: string;
  started_at: string;
  finished_at: string;
  dry_run: boolean;
  decay: DecayOutput | null;
  consolidation: ConsolidateOutput | null;
  prune: PruneOutput | null;
}

/** run_daily_maintenance: decay, then consolidation, then pruning, so pruning sees fresh scores. */
export async function runDailyMaintenance(
  deps: CoreDeps,
  userId: string,
  options: MaintenanceOptions = {},
): Promise<MaintenanceReport> {
  const user = requireId(userId, 'user_id');
  const dryRun = options.dry_run === true;
  const startedAt = deps.clock.now().toISOString();
  const decay =
    options.decay?.enabled === false ? null : await applyDecay(deps, user, { ...options.decay, dry_run: dryRun });
  const consolidation =
    options.consolidation?.enabled === false
      ? null
      : await consolidateMemories(deps, { user_id: user, ...options.consolidation, dry_run: dryRun });
  const pruneWanted =
    options.prune &&
    options.prune.enabled !== false &&
    (options.prune.older_than_days !== undefined || options.prune.max_score !== undefined);
  const prune = pruneWanted
    ? await pruneMemories(deps, {
        user_id: user,
        ...(options.prune?.older_than_days !== undefined ? { older_than_days: options.prune.older_than_days } : {}),
        ...(options.prune?.max_score !== undefined ? { max_score: options.prune.max_score } : {}),
        ...(options.prune?.limit !== undefined ? { limit: options.prune.limit } : {}),
        dry_run: dryRun,
      })
    : null;
  return {
    user_id: user,
    started_at: startedAt,
    finished_at: deps.clock.now().toISOString(),
    dry_run: dryRun,
    decay,
    consolidation,
    prune,
  };
}
