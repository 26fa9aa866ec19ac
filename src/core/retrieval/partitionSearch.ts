/**
 * One partition's search, the pipeline after query analysis: candidates (candidateGathering.ts) →
 * the question's project scope (namedScope.ts: a name the question writes, or an abbreviation
 * only that project's memories use) → text match (textMatchSignal.ts) → neighbours in a
 * conversation (conversationNeighbours.ts) → the combined score and the partial floor
 * (combinedScore.ts). Recall runs it once per partition and applies the floor to them all.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import type { BelowFloor } from './abstention.ts';
import { gatherCandidates, requestedByPath, type Candidates } from './candidateGathering.ts';
import { scoreCandidates } from './combinedScore.ts';
import { lendToNeighbours } from './conversationNeighbours.ts';
import type { CandidateRows } from './candidateRows.ts';
import { projectOf, questionScope, type TermEvidence } from './namedScope.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import type { RecallSearch } from './recallSearch.ts';
import type { RankedCandidate } from './scoredMemory.ts';
import { textMatches } from './textMatchSignal.ts';

export interface PartitionResult {
  scored: RankedCandidate[];
  considered: number;
  vectorMethod: string | null;
  belowFloor: BelowFloor;
}

/**
 * Candidates of one partition from every signal, scored on their ranking facts; the partial floor
 * already applied. Rows the listings read on the way go to `rows`; no other row is read.
 */
export async function searchPartition(
  deps: Pick<CoreDeps, 'store' | 'embeddings' | 'config'>,
  filter: MemoryFilter,
  search: RecallSearch,
  rows: CandidateRows,
): Promise<PartitionResult> {
  const candidates = await gatherCandidates(deps, filter, search, rows);
  const { facts } = candidates;
  // The project the question names is its scope, not its topic (namedScope.ts).
  const scope = questionScope(
    search.query,
    [...facts.values()].map(projectOf).filter((project): project is string => project !== null),
    search.boundProject,
    (word) => termEvidence(word, candidates),
  );
  const text = textMatches(search, candidates, scope.nameTerms);
  const requested = await requestedByPath(deps, filter, search, facts, rows);
  const expanded = await lendToNeighbours(
    deps,
    filter,
    text.hits,
    search.limit,
    search.candidateLimit,
    facts,
    text.coveredWindow,
  );
  const { scored, considered, belowFloor } = scoreCandidates({
    partition: filter.user_id,
    search,
    facts,
    expanded,
    coverage: text,
    vectorById: candidates.vectorById,
    requested,
    scope,
  });
  return { scored, considered, vectorMethod: candidates.vectorMethod, belowFloor };
}

/**
 * What the candidates say about a question word (namedScope.ts, abbreviations): its document
 * frequency among the user's memories and the projects of the candidates that have it. Null when
 * the word is not one search term (a stop word, an identifier of several).
 */
function termEvidence(word: string, candidates: Pick<Candidates, 'lexical' | 'stats' | 'facts'>): TermEvidence | null {
  const terms = analyzeQuery(word);
  if (terms.length !== 1) return null;
  const [{ term }] = terms;
  const documents = candidates.stats.frequencies.get(term);
  if (documents === undefined) return null;
  const candidateProjects = candidates.lexical
    .filter((hit) => hit.matched_terms.includes(term))
    .map((hit) => {
      const memory = candidates.facts.get(hit.memory_id);
      return memory ? projectOf(memory) : null;
    });
  return { documents, candidateProjects };
}
