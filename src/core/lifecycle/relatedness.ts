import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { cosineSimilarity } from '../longterm/textSimilarity.ts';
import { analyzeDocument } from '../text/analyzer.ts';

/**
 * Default relatedness at or above which auto_link_similar links two memories. Chosen on the
 * fixture of test/core/lifecycle/relatedness.test.ts: twelve memories about one topic in other
 * words score 0.38–0.56 against their target, unrelated ones 0–0.16; 0.3 sits in the gap.
 */
export const DEFAULT_LINK_THRESHOLD = 0.3;

type Linkable = Pick<MemoryRecord, 'content' | 'entities' | 'tags'>;

/**
 * How much two memories are about the same thing, 0..1: the cosine of their embeddings when both
 * have one of the same model, else (and at least) the cosine of their index terms (stemmed, stop
 * words dropped, entities and tags weighted as the search index weighs them). Raw word overlap,
 * which near-duplicate detection uses, is the wrong measure here: related memories say different
 * things about one topic, so they share its few words and little else ("the", "is", "with" made
 * two unrelated memories look as alike as two related ones).
 */
export function relatedness(
  a: Linkable,
  b: Linkable,
  vectors: { a?: StoredEmbedding; b?: StoredEmbedding } = {},
): number {
  const vector =
    vectors.a && vectors.b && vectors.a.model === vectors.b.model
      ? cosineSimilarity(vectors.a.vector, vectors.b.vector)
      : 0;
  return Math.max(vector, termCosine(termsOf(a), termsOf(b)));
}

function termsOf(memory: Linkable): Map<string, number> {
  return analyzeDocument({ content: memory.content, entities: memory.entities, tags: memory.tags }).terms;
}

function termCosine(left: Map<string, number>, right: Map<string, number>): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [term, weight] of left) {
    leftNorm += weight * weight;
    dot += weight * (right.get(term) ?? 0);
  }
  for (const weight of right.values()) rightNorm += weight * weight;
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
