import type { StoredEmbedding } from '../domain/records.ts';
import type { DuplicateCandidate } from '../ports/duplicateGuard.ts';
import type { ScopeRef, WeightedTerm } from '../ports/memoryStore.ts';
import { cosineSimilarity, similarityToText, wordCounts, type WordCounts } from './textSimilarity.ts';

/** The memory being stored, as the duplicate rule sees it. */
export interface DuplicateProbe {
  scope: ScopeRef;
  project_id: string | null;
  content: string;
  /** The words of `content` (wordCounts), taken once: every candidate is compared with them. */
  contentWords: WordCounts;
  /** The terms its duplicate search uses (computed once, for the search and the check in the write). */
  terms: WeightedTerm[];
  embedding: StoredEmbedding | null;
  /** The fact it states (factIdentity), or null. */
  fact: string | null;
}

/** The probe of a memory being stored; its words are counted here, once. */
export function duplicateProbeOf(fields: Omit<DuplicateProbe, 'contentWords'>): DuplicateProbe {
  return { ...fields, contentWords: wordCounts(fields.content) };
}

/**
 * How close a stored memory is to the one being stored (text or vector, the higher), or 0 when it
 * cannot be its duplicate: forgotten, superseded, another layer scope, another project, or another
 * fact (a merge rewrites the older memory's metadata, so merging across facts would replace one
 * fact's value with another's). The one rule for the search before the insert and the check inside it.
 */
export function duplicateSimilarity(
  probe: DuplicateProbe,
  candidate: DuplicateCandidate,
  candidateEmbedding: StoredEmbedding | null,
): number {
  if (candidate.deleted || candidate.superseded) return 0;
  if (candidate.layer !== probe.scope.layer || candidate.scope_id !== probe.scope.scope_id) return 0;
  // As the search's filter: a user-wide memory (no project) is in every project.
  if (candidate.project_id !== null && candidate.project_id !== probe.project_id) return 0;
  if (candidate.fact !== probe.fact) return 0;
  const vectorSimilarity =
    probe.embedding && candidateEmbedding && candidateEmbedding.model === probe.embedding.model
      ? cosineSimilarity(probe.embedding.vector, candidateEmbedding.vector)
      : 0;
  return Math.max(similarityToText(probe.contentWords, candidate.content), vectorSimilarity);
}
