import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { duplicateCandidateOf, type DuplicateGuard } from '../ports/duplicateGuard.ts';
import type { WeightedTerm } from '../ports/memoryStore.ts';
import { analyzeQueryOfContent } from '../text/analyzer.ts';
import { duplicateSimilarity, type DuplicateProbe } from './duplicateProbe.ts';

const DEDUP_CANDIDATES = 5;
/**
 * A near-duplicate shares almost every term, so a dozen of them find it; long terms are the rare
 * ones, and short common ones would make the search walk most of the store.
 */
const DEDUP_QUERY_TERMS = 12;

/**
 * The terms a duplicate search uses: the dozen rarest (longest among equals). Of the content
 * being stored, so its analysis is kept for the index entry its insert makes (analyzer.ts).
 */
export function dedupTerms(content: string): WeightedTerm[] {
  return dedupTermsOf(analyzeQueryOfContent(content));
}

/** dedupTerms of a content's query terms (analyzeQueryOfContent) already taken; `terms` is left as it was. */
export function dedupTermsOf(terms: readonly WeightedTerm[]): WeightedTerm[] {
  return [...terms].sort((a, b) => b.weight - a.weight || b.term.length - a.term.length).slice(0, DEDUP_QUERY_TERMS);
}

/** The search for a stored memory's near-duplicate: before the insert, and the same rule inside it. */
export class DuplicateSearch {
  private readonly deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  /** What the store checks inside the insert's write (DuplicateGuard): the same rule as the search. */
  guard(mark: string, partition: string, probe: DuplicateProbe): DuplicateGuard {
    return {
      mark,
      candidates: {
        filter: { user_id: partition, project_id: probe.project_id, scopes: [probe.scope] },
        terms: probe.terms,
        limit: DEDUP_CANDIDATES,
      },
      wantsEmbeddings: probe.embedding !== null,
      similarity: (candidate, embedding) => duplicateSimilarity(probe, duplicateCandidateOf(candidate), embedding),
      threshold: this.deps.config.dedupThreshold,
    };
  }

  /**
   * The closest memory that could be a duplicate (duplicateSimilarity: same layer scope, project and
   * fact, live), when its similarity reaches `floor`: a duplicate in another layer is not one here.
   * The candidates are read as the rule reads them (text and a few columns); only the closest is
   * read in full, and scored again on that row, so what is returned is what one read of it says.
   */
  async findMostSimilar(
    partition: string,
    probe: DuplicateProbe,
    floor: number,
  ): Promise<{ memory: MemoryRecord; similarity: number } | null> {
    const filter = { user_id: partition, project_id: probe.project_id, scopes: [probe.scope] };
    const terms = probe.terms;
    // Duplicates share their words, so full-text finds the candidates; vectors only refine the
    // similarity of those few, which spares a vector scan on every store.
    if (terms.length === 0) return null;
    const candidates = await this.deps.store.duplicateCandidates({ filter, terms, limit: DEDUP_CANDIDATES });
    if (candidates.length === 0) return null;
    const vectors = await this.vectorsOf(
      partition,
      probe,
      candidates.map((candidate) => candidate.memory_id),
    );
    let best: { memoryId: string; similarity: number } | null = null;
    for (const candidate of candidates) {
      const similarity = duplicateSimilarity(probe, candidate, vectors.get(candidate.memory_id) ?? null);
      if (similarity > 0 && (!best || similarity > best.similarity))
        best = { memoryId: candidate.memory_id, similarity };
    }
    if (best === null || best.similarity < floor) return null;
    const [[memory], vector] = await Promise.all([
      this.deps.store.getMemories(partition, [best.memoryId]),
      this.vectorsOf(partition, probe, [best.memoryId]),
    ]);
    if (memory === undefined) return null;
    const similarity = duplicateSimilarity(probe, duplicateCandidateOf(memory), vector.get(memory.memory_id) ?? null);
    return similarity >= floor && similarity > 0 ? { memory, similarity } : null;
  }

  private vectorsOf(partition: string, probe: DuplicateProbe, ids: string[]): Promise<Map<string, StoredEmbedding>> {
    return probe.embedding
      ? this.deps.store.getEmbeddings(partition, ids)
      : Promise.resolve(new Map<string, StoredEmbedding>());
  }
}
