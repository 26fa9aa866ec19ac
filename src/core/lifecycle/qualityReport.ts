import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { LIMITS, requireId } from '../validation.ts';
import { scanContradictions } from './contradictionScan.ts';
import { listAllMemories } from './listAll.ts';
import { SimilarityIndex } from './similarityIndex.ts';

export interface QualityReport {
  user_id: string;
  total_memories: number;
  duplicates: Array<{ memory_ids: string[]; example: string }>;
  contradictions: Array<{ memory_ids: [string, string]; kind: string; reason: string }>;
  stale: Array<{ memory_id: string; days_since_access: number; decay_factor: number }>;
  orphaned: Array<{ memory_id: string; missing_links: string[] }>;
  health_score: number;
  score_explanation: string;
  truncated: boolean;
}

const DAY_MS = 86_400_000;
const STALE_DAYS = 90;
const DUPLICATE_THRESHOLD = 0.9;
const LIST_CAP = 50;
const SCAN_CAP = 2_000;
const WEIGHTS = { duplicates: 0.3, contradictions: 0.35, stale: 0.2, orphaned: 0.15 };

/**
 * memory_quality_report: what lowers the quality of a user's memory, and a 0-100 health score.
 * score = 100 × (1 − Σ weight × share of memories affected), weights duplicates 0.3,
 * contradictions 0.35, stale 0.2, orphaned 0.15; each share is capped at 1.
 */
export async function qualityReport(deps: CoreDeps, userId: string): Promise<QualityReport> {
  const user = requireId(userId, 'user_id');
  const now = deps.clock.now().getTime();
  const { items, truncated } = await listAllMemories(deps.store, { user_id: user, state: 'live' }, SCAN_CAP);
  const index = new SimilarityIndex(items.map((memory) => memory.content));
  const duplicateGroups = await index.clusters(
    DUPLICATE_THRESHOLD,
    (i, j) => items[i].memory_category === items[j].memory_category,
  );
  const contradictions = await scanContradictions(deps, user, { limit: LIMITS.contradictionPairs });
  const stale = items
    .map((memory) => ({ memory, days: Math.floor((now - Date.parse(memory.last_accessed)) / DAY_MS) }))
    .filter(
      ({ memory, days }) =>
        !memory.pinned && (memory.decay_factor < 0.3 || (days > STALE_DAYS && memory.access_count === 0)),
    )
    .map(({ memory, days }) => ({
      memory_id: memory.memory_id,
      days_since_access: days,
      decay_factor: memory.decay_factor,
    }));
  const orphaned = await findOrphans(deps, user, items);

  const total = Math.max(1, items.length);
  const share = (count: number) => Math.min(1, count / total);
  const duplicateMembers = duplicateGroups.reduce((sum, group) => sum + group.length - 1, 0);
  const contradicted = new Set(
    contradictions.pairs
      .filter((pair) => pair.strength === 'strong')
      .flatMap((pair) => [pair.older.memory_id, pair.newer.memory_id]),
  ).size;
  const penalty =
    WEIGHTS.duplicates * share(duplicateMembers) +
    WEIGHTS.contradictions * share(contradicted) +
    WEIGHTS.stale * share(stale.length) +
    WEIGHTS.orphaned * share(orphaned.length);
  const score = items.length === 0 ? 100 : Math.round(100 * (1 - penalty));
  return {
    user_id: user,
    total_memories: items.length,
    duplicates: duplicateGroups.slice(0, LIST_CAP).map((group) => ({
      memory_ids: group.map((position) => items[position].memory_id),
      example: items[group[0]].content.slice(0, 160),
    })),
    contradictions: contradictions.pairs.slice(0, LIST_CAP).map((pair) => ({
      memory_ids: [pair.older.memory_id, pair.newer.memory_id],
      kind: pair.kind,
      reason: pair.reason,
    })),
    stale: stale.slice(0, LIST_CAP),
    orphaned: orphaned.slice(0, LIST_CAP),
    health_score: score,
    score_explanation:
      `100 × (1 − 0.30×duplicates − 0.35×contradicted − 0.20×stale − 0.15×orphaned), each the share of the ${items.length} live memories affected: ` +
      `${duplicateMembers} redundant duplicates, ${contradicted} in strong contradictions, ${stale.length} stale (decay_factor < 0.3, or unused for ${STALE_DAYS}+ days), ${orphaned.length} with dangling links.`,
    truncated,
  };
}

/** Memories whose links point to memories that are gone (hard-deleted or forgotten). */
async function findOrphans(
  deps: CoreDeps,
  userId: string,
  items: readonly MemoryRecord[],
): Promise<Array<{ memory_id: string; missing_links: string[] }>> {
  const linked = [
    ...new Set(
      items.flatMap((memory) => [...memory.related_memories, ...(memory.supersedes ? [memory.supersedes] : [])]),
    ),
  ];
  const live = new Set(items.map((memory) => memory.memory_id));
  const unknown = linked.filter((id) => !live.has(id));
  // Superseded memories are hidden from the live listing but still exist; only truly absent or deleted ones count.
  const found = new Map((await deps.store.getMemories(userId, unknown)).map((memory) => [memory.memory_id, memory]));
  const present = (id: string) => live.has(id) || (found.has(id) && found.get(id)?.deleted_at === null);
  return items
    .map((memory) => ({
      memory_id: memory.memory_id,
      missing_links: [...memory.related_memories, ...(memory.supersedes ? [memory.supersedes] : [])].filter(
        (id) => !present(id),
      ),
    }))
    .filter((entry) => entry.missing_links.length > 0);
}
