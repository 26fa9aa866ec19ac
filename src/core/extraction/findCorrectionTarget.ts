import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { analyzeQuery } from '../text/analyzer.ts';

const CANDIDATES = 8;

/**
 * The live memory a correction replaces: it must still state the wrong value and share the
 * correction's subject words. `exclude` holds the raw memory being extracted, which states both,
 * and memories stored from it moments ago.
 */
export async function findCorrectionTarget(
  deps: CoreDeps,
  input: { user_id: string; project_id: string | null; content: string; replaces: string; exclude: readonly string[] },
): Promise<MemoryRecord | null> {
  const terms = analyzeQuery(`${input.content} ${input.replaces}`);
  if (terms.length === 0) return null;
  const hits = await deps.store.searchLexical({
    filter: { user_id: input.user_id, project_id: input.project_id, include_superseded: true },
    terms,
    limit: CANDIDATES,
  });
  const ids = hits.map((hit) => hit.memory_id).filter((id) => !input.exclude.includes(id));
  if (ids.length === 0) return null;
  const order = new Map(ids.map((id, index) => [id, index]));
  const candidates = (await deps.store.getMemories(input.user_id, ids)).sort(
    (a, b) => (order.get(a.memory_id) ?? 0) - (order.get(b.memory_id) ?? 0),
  );
  const wrong = new RegExp(`(?<![\\w.])${escapeRegExp(input.replaces)}(?![\\w])`, 'i');
  // Storing the raw memory may already have superseded the target (contradiction detection); the
  // extracted correction takes that over, because the raw memory itself may be replaced.
  const live = (memory: MemoryRecord): boolean =>
    !memory.deleted_at && !memory.pinned && (!memory.superseded_by || input.exclude.includes(memory.superseded_by));
  return candidates.find((memory) => live(memory) && wrong.test(memory.content)) ?? null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
