import type { StoredEmbedding } from '../../core/domain/records.ts';
import type { VectorHit } from '../../core/ports/memoryStore.ts';
import { TopK } from '../common/topK.ts';
import type { BinaryVectorIndex } from './binaryVectorIndex.ts';
import { cosine, norm } from './vectorMath.ts';

/**
 * Below this many vectors an exact scan is cheap (under a millisecond at 384 dims) and has
 * nothing to gain from quantization.
 */
export const EXACT_SCAN_LIMIT = 2_000;

/**
 * Candidates the Hamming scan hands to the exact rerank. Each costs a float32 vector read from
 * SQLite (6 KB at 1,536 dimensions), so the pool is what a recall's latency at scale is made of;
 * planted near-duplicates are still found first at this size (test/stores/sqliteStore.test.ts).
 */
export function rerankPoolSize(limit: number): number {
  return Math.max(limit * 5, 100);
}

export interface VectorSearchInput {
  /** Slots hold meta rows; `accept` tests a row. */
  index: BinaryVectorIndex<number>;
  model: string;
  query: Float32Array;
  accept: (row: number) => boolean;
  limit: number;
  /** Reads float32 vectors the index does not hold in memory, from SQLite. */
  loadVectors: (memoryIds: readonly string[]) => Map<string, StoredEmbedding>;
}

/**
 * The filter is applied per slot before any distance is computed, so a filter that admits only a
 * few rows still yields the exact best of those rows, never a filtered-down global top-k.
 */
export function searchVectorIndex(input: VectorSearchInput): VectorHit[] {
  const { index, query, accept, limit } = input;
  if (limit <= 0 || index.size === 0) return [];
  const exact = index.size <= EXACT_SCAN_LIMIT;
  const candidates = exact ? index.accepted(accept) : index.nearestByHamming(query, rerankPoolSize(limit), accept);
  const vectors = candidateVectors(input, candidates);
  const queryNorm = norm(query);
  const top = new TopK(limit);
  for (let i = 0; i < candidates.length; i++) {
    const vector = vectors[i];
    if (vector === null) continue;
    top.offer(i, cosine(query, queryNorm, vector, norm(vector)), i);
  }
  const method = exact ? 'exact' : 'binary+rerank';
  return top.drain().map(({ slot, score }) => ({ memory_id: candidates[slot], similarity: score, method }));
}

function candidateVectors(input: VectorSearchInput, candidates: readonly string[]): (Float32Array | null)[] {
  const vectors = candidates.map((id) => input.index.cachedVector(id));
  const missing = candidates.filter((_, i) => vectors[i] === null);
  if (missing.length === 0) return vectors;
  const loaded = input.loadVectors(missing);
  return candidates.map((id, i) => {
    const cached = vectors[i];
    if (cached !== null) return cached;
    const stored = loaded.get(id);
    // A vector replaced by another model since the index was built no longer belongs to this search.
    return stored !== undefined && stored.model === input.model && stored.vector.length === input.index.dims
      ? stored.vector
      : null;
  });
}
