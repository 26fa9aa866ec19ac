/**
 * One partition's search, the pipeline after query analysis: candidates (candidateGathering.ts) →
 * the question's project scope (namedScope.ts) → text match (textMatchSignal.ts) → neighbours in a
 * conversation (conversationNeighbours.ts) → the combined score and the partial floor
 * (combinedScore.ts). Recall runs it once per partition and applies the floor to them all.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import type { BelowFloor } from './abstention.ts';
import { gatherCandidates, requestedByPath } from './candidateGathering.ts';
import { scoreCandidates } from './combinedScore.ts';
import { lendToNeighbours } from './conversationNeighbours.ts';
import { projectOf, questionScope } from './namedScope.ts';
import type { RecallSearch } from './recallSearch.ts';
import type { ScoredMemory } from './scoredMemory.ts';
import { textMatches } from './textMatchSignal.ts';

export interface PartitionResult {
  scored: ScoredMemory[];
  considered: number;
  vectorMethod: string | null;
  belowFloor: BelowFloor;
}

/** Candidates of one partition from every signal, scored; the partial floor already applied. */
export async function searchPartition(
  deps: Pick<CoreDeps, 'store' | 'embeddings' | 'config'>,
  filter: MemoryFilter,
  search: RecallSearch,
): Promise<PartitionResult> {
  const candidates = await gatherCandidates(deps, filter, search);
  const { records } = candidates;
  // The project the question names is its scope, not its topic (namedScope.ts).
  const scope = questionScope(
    search.query,
    [...records.values()].map(projectOf).filter((project): project is string => project !== null),
    search.boundProject,
  );
  const text = textMatches(search, candidates, scope.nameTerms);
  const requested = await requestedByPath(deps, filter, search, records);
  const expanded = await lendToNeighbours(deps, filter, text.hits, search.limit, search.candidateLimit, records);
  const { scored, considered, belowFloor } = scoreCandidates({
    search,
    records,
    expanded,
    coverage: text,
    vectorById: candidates.vectorById,
    requested,
    scope,
  });
  return { scored, considered, vectorMethod: candidates.vectorMethod, belowFloor };
}
