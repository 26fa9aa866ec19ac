import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';
import type { ScopeRef, WeightedTerm } from '../ports/memoryStore.ts';
import { type Contradiction, detectContradiction } from './contradictions.ts';

const CANDIDATES = 8;
const QUERY_TERMS = 32;

export interface StoreConflict {
  memory: MemoryRecord;
  contradiction: Contradiction;
}

/**
 * The live memory a new one strongly contradicts, if any (called by LongTermMemory.store).
 * Contradicting memories share their subject words, so full-text search finds the candidates.
 */
export async function findStoreConflict(
  deps: CoreDeps,
  input: {
    user_id: string;
    scopes?: readonly ScopeRef[];
    project_id: string | null;
    content: string;
    memory_category: MemoryCategory;
    metadata: Record<string, unknown>;
    /** The content's query terms (analyzeQueryOfContent), analysed once for this and the duplicate search. */
    terms: readonly WeightedTerm[];
  },
): Promise<StoreConflict | null> {
  if (input.memory_category === 'episodic') return null;
  const terms = [...input.terms].sort((a, b) => b.weight - a.weight).slice(0, QUERY_TERMS);
  if (terms.length === 0) return null;
  const hits = await deps.store.searchLexical({
    filter: { user_id: input.user_id, project_id: input.project_id, ...(input.scopes ? { scopes: input.scopes } : {}) },
    terms,
    limit: CANDIDATES,
  });
  if (hits.length === 0) return null;
  const candidates = await deps.store.getMemories(
    input.user_id,
    hits.map((hit) => hit.memory_id),
  );
  const order = new Map(hits.map((hit, index) => [hit.memory_id, index]));
  candidates.sort((a, b) => (order.get(a.memory_id) ?? 0) - (order.get(b.memory_id) ?? 0));
  for (const memory of candidates) {
    if (memory.deleted_at || memory.superseded_by || memory.pinned) continue;
    const contradiction = detectContradiction(memory, input);
    if (contradiction?.strength === 'strong') return { memory, contradiction };
  }
  return null;
}
