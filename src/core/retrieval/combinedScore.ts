/**
 * The combination: each candidate's match (text, fused with its semantic similarity) times the
 * bounded multipliers of relevance.ts, then the query's vague time (vagueTimeSignal.ts) and the
 * project scope (namedScope.ts); and the score the relevance floor is compared with (its gate).
 * Candidates below the partial floor are held back here (abstention.ts).
 */
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { VectorHit } from '../ports/memoryStore.ts';
import { holdBack, nothingBelowFloor, type BelowFloor } from './abstention.ts';
import type { WithNeighbours } from './conversationNeighbours.ts';
import { OTHER_PROJECT_SHARE, outsideScope, type QuestionScope } from './namedScope.ts';
import type { RecallSearch } from './recallSearch.ts';
import { scoreMemory } from './relevance.ts';
import type { RankedCandidate } from './scoredMemory.ts';
import type { TextMatches } from './textMatchSignal.ts';
import { nearVagueTime, TIME_BOOST } from './vagueTimeSignal.ts';

export interface ScoringInputs {
  /** The store partition searched (RankedCandidate.partition). */
  partition: string;
  search: RecallSearch;
  facts: ReadonlyMap<string, RankingFacts>;
  /** The text candidates with their neighbours, at most the candidate pool. */
  expanded: WithNeighbours;
  coverage: Pick<TextMatches, 'coverageById' | 'coveredWindow'>;
  vectorById: ReadonlyMap<string, VectorHit>;
  /** Memories the caller asked for by path: relevant by request. */
  requested: ReadonlySet<string>;
  scope: QuestionScope;
}

export function scoreCandidates(inputs: ScoringInputs): {
  scored: RankedCandidate[];
  considered: number;
  belowFloor: BelowFloor;
} {
  const { partition, search, facts, expanded, coverage, vectorById, requested, scope } = inputs;
  // Expansion can add several neighbours per hit; only the best of them are worth scoring.
  const lexicalHits = expanded.hits.slice(0, search.candidateLimit);
  const lexicalById = new Map(lexicalHits.map((hit) => [hit.memory_id, hit]));
  const ids = [...new Set([...lexicalById.keys(), ...vectorById.keys(), ...requested])];

  const { queryEntities, hint } = search;
  const scored: RankedCandidate[] = [];
  const belowFloor = nothingBelowFloor();
  for (const id of ids) {
    const memory = facts.get(id);
    if (!memory) continue;
    const lexicalHit = lexicalById.get(id);
    const vectorHit = vectorById.get(id);
    const semantic = vectorHit ? Math.max(0, vectorHit.similarity) : null;
    const text = Math.min(1, lexicalHit?.score ?? 0);
    // A memory found only by its vector must be close to the query in meaning, not just nearest.
    const byRequest = requested.has(id);
    if (text === 0 && (semantic === null || semantic < search.vectorOnlyMinSimilarity) && !byRequest) continue;
    const matchedEntities = memory.entities.filter((entity) => queryEntities.has(entity.toLowerCase()));
    const typeMultiplier = search.typeWeight(memory.memory_category, memory.memory_subtype, search.intent);
    const { score, breakdown } = scoreMemory(
      memory,
      {
        text,
        semantic,
        matched_terms: lexicalHit?.matched_terms ?? [],
        matched_entities: matchedEntities,
        entity_share: queryEntities.size > 0 ? Math.min(1, matchedEntities.length / queryEntities.size) : 0,
      },
      typeMultiplier,
      search.now,
    );
    if (expanded.lentTo.has(id)) breakdown.signals.push('neighbour');
    if (coverage.coveredWindow.has(id)) breakdown.signals.push('time');
    const inTimeHint = nearVagueTime(memory, hint);
    const otherProject = outsideScope(scope, memory);
    if (otherProject) breakdown.signals.push('other_project');
    const final = Math.min(1, (inTimeHint ? score * TIME_BOOST : score) * (otherProject ? OTHER_PROJECT_SHARE : 1));
    // A near miss never clears the floor on the words it shares: only a caller's min_similarity 0 sees it.
    const gated = otherProject
      ? 0
      : search.floorBeforeTypeWeight && typeMultiplier > 0
        ? Math.min(1, final / typeMultiplier)
        : final;
    const focused =
      search.focusEntities.size > 0 && matchedEntities.some((entity) => search.focusEntities.has(entity.toLowerCase()));
    // A memory carrying a focus entity, or one the caller asked for by path, is relevant by request: it clears the floor.
    const gate = focused || byRequest ? Math.max(gated, search.minScore) : gated;
    if (gate < search.partialScore) {
      holdBack(belowFloor, id, final);
      continue;
    }
    scored.push({
      partition,
      facts: memory,
      score: final,
      similarity: semantic ?? text,
      breakdown,
      bridges: coverage.coverageById.get(id)?.bridges ?? [],
      gate,
      dialogTurn: memory.conversation !== null,
      matchedTerms: breakdown.matched_terms,
    });
  }
  return { scored, considered: ids.length, belowFloor };
}
