import type { WeightedTerm } from '../../core/ports/memoryStore.ts';
import { bm25Idf } from './lexicalIndex.ts';
import type { LexicalIndex } from './lexicalIndex.ts';

/**
 * RM3 pseudo-relevance feedback (Lavrenko & Croft's relevance model, interpolated with the
 * original query as in Anserini). The top documents of a first search vote for the terms
 * that co-occur with the query, which recovers answers phrased with other words than the
 * question ("adopt" for a question about "kids"), with no model.
 */
export interface FeedbackOptions {
  /** How many top documents vote. */
  documents: number;
  /** How many expansion terms are kept. */
  terms: number;
  /** Share of the final query mass given to expansion terms, 0..1. */
  lambda: number;
}

/**
 * On LoCoMo (bench/lexical-locomo.ts) RM3 moved recall@10 by under a point either way and
 * cost recall@1, so the core should treat it as optional; these are Anserini-like defaults.
 */
export const DEFAULT_FEEDBACK: FeedbackOptions = { documents: 10, terms: 10, lambda: 0.3 };

export function expandQuery(
  index: LexicalIndex,
  query: readonly WeightedTerm[],
  options?: Partial<FeedbackOptions>,
): WeightedTerm[] {
  const { documents, terms, lambda } = { ...DEFAULT_FEEDBACK, ...options };
  const originalMass = query.reduce((sum, { weight }) => sum + weight, 0);
  if (originalMass <= 0 || lambda <= 0) return [...query];
  const hits = index.search(query, documents);
  if (hits.length === 0) return [...query];

  // P(D|Q) ~ the first-pass score; P(t|D) ~ tf / |D| over the analysed terms.
  const scoreMass = hits.reduce((sum, hit) => sum + hit.score, 0);
  const model = new Map<string, number>();
  const { documents: corpusSize } = index.stats();
  for (const hit of hits) {
    const docTerms = index.documentTerms(hit.memory_id);
    if (docTerms === undefined) continue;
    let docLength = 0;
    for (const tf of docTerms.values()) docLength += tf;
    for (const [term, tf] of docTerms) {
      model.set(term, (model.get(term) ?? 0) + (hit.score / scoreMass) * (tf / docLength));
    }
  }
  // Terms in every document carry no evidence; the idf floor keeps them out of the expansion.
  const expansion = [...model]
    .filter(([term]) => bm25Idf(corpusSize, index.documentFrequency(term)) > 0.5)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, terms);
  const expansionMass = expansion.reduce((sum, [, weight]) => sum + weight, 0);

  const merged = new Map<string, number>();
  for (const { term, weight } of query)
    merged.set(term, (merged.get(term) ?? 0) + (1 - lambda) * (weight / originalMass));
  for (const [term, weight] of expansion) merged.set(term, (merged.get(term) ?? 0) + lambda * (weight / expansionMass));
  // Rescaled to the original mass so scores stay on the scale of the unexpanded query.
  return [...merged].map(([term, weight]) => ({ term, weight: weight * originalMass }));
}
