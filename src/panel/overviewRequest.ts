import type { CountPoint, Overview, PanelErrorEntry } from '../shared/panelProtocol.ts';
import type { PanelDeps } from './panelDeps.ts';
import type { RecallActivity } from './recallActivity.ts';
import type { RecentRecalls } from './recentRecalls.ts';

const WEEK_MS = 7 * 86_400_000;
const GROWTH_WEEKS = 12;

export async function overview(
  deps: PanelDeps,
  activity: RecallActivity,
  recalls: RecentRecalls,
  errors: readonly PanelErrorEntry[],
): Promise<Overview> {
  const userId = deps.userId();
  const [stats, growth] = await Promise.all([deps.core.stats(userId), growthSeries(deps, userId, Date.now())]);
  const embeddingErrors: PanelErrorEntry[] = stats.embeddings.last_error
    ? [{ at: stats.embeddings.last_error.at, code: 'EMBEDDING_FAILED', message: stats.embeddings.last_error.message }]
    : [];
  return {
    user_id: userId,
    memories: stats.memories,
    deleted: stats.deleted,
    pinned: stats.pinned,
    embedded: stats.embedded,
    by_category: stats.by_category,
    by_subtype: stats.by_subtype,
    sessions: stats.sessions,
    working_items: stats.working_items,
    access_log_entries: stats.access_log_entries,
    storage_bytes: stats.storage_bytes,
    growth,
    recall_activity: activity.series(Date.now()),
    recent_recalls: recalls.list(),
    backend: stats.backend,
    embeddings: {
      provider: stats.embeddings.provider,
      model: stats.embeddings.model,
      failures: stats.embeddings.failures,
      startup_check: stats.embeddings.startup_check ?? null,
    },
    enrichment: stats.extraction?.enrichment
      ? (({ enricher, succeeded, skipped, failed, keys_added, last_error }) => ({
          enricher,
          succeeded,
          skipped,
          failed,
          keys_added,
          last_error,
        }))(stats.extraction.enrichment)
      : null,
    recent_errors: [...embeddingErrors, ...errors].sort((a, b) => b.at.localeCompare(a.at)).slice(0, 10),
  };
}

/**
 * Live memories (superseded ones included, as in the store's count) existing at the end of each week. The store has no histogram query;
 * one counting listing per week (limit 0, the store only counts) stays cheap at any size.
 */
async function growthSeries(deps: PanelDeps, userId: string, now: number): Promise<CountPoint[]> {
  const ends = Array.from({ length: GROWTH_WEEKS }, (_, index) => now - (GROWTH_WEEKS - 1 - index) * WEEK_MS);
  const totals = await Promise.all(
    ends.map((end) =>
      deps.core.listMemories({
        filter: { user_id: userId, before: new Date(end).toISOString(), include_superseded: true },
        sort: 'created',
        offset: 0,
        limit: 0,
      }),
    ),
  );
  return ends.map((end, index) => ({ start: new Date(end - WEEK_MS).toISOString(), count: totals[index].total }));
}
