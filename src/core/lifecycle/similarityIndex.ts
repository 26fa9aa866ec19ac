import type { StoredEmbedding } from '../domain/records.ts';
import { cosineSimilarity } from '../longterm/textSimilarity.ts';
import { YieldEvery } from '../util/yieldEvery.ts';

/**
 * Pairwise content similarity for a batch of memories: word-count vectors are built once per
 * memory (not once per pair), and stored embeddings of the same model win when both have one.
 */
export class SimilarityIndex {
  private readonly words: Array<{ counts: Map<string, number>; norm: number }>;
  private readonly vectors: Array<StoredEmbedding | undefined>;

  constructor(texts: readonly string[], vectors: ReadonlyArray<StoredEmbedding | undefined> = []) {
    this.words = texts.map((text) => {
      const counts = new Map<string, number>();
      for (const word of text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}_]+/gu) ?? [])
        counts.set(word, (counts.get(word) ?? 0) + 1);
      let norm = 0;
      for (const count of counts.values()) norm += count * count;
      return { counts, norm: Math.sqrt(norm) };
    });
    this.vectors = texts.map((_, index) => vectors[index]);
  }

  similarity(i: number, j: number): number {
    const a = this.vectors[i];
    const b = this.vectors[j];
    if (a && b && a.model === b.model) return cosineSimilarity(a.vector, b.vector);
    const left = this.words[i];
    const right = this.words[j];
    if (left.norm === 0 || right.norm === 0) return 0;
    const [small, large] =
      left.counts.size <= right.counts.size ? [left.counts, right.counts] : [right.counts, left.counts];
    let dot = 0;
    for (const [word, count] of small) dot += count * (large.get(word) ?? 0);
    return dot / (left.norm * right.norm);
  }

  /** Groups of indexes whose members are each at or above the threshold to the group's first member. */
  async clusters(threshold: number, sameGroup: (i: number, j: number) => boolean = () => true): Promise<number[][]> {
    const taken = new Set<number>();
    const groups: number[][] = [];
    // The scan is quadratic (5,000 candidates: 12.5M pairs): a turn for others every 32 rows.
    const slice = new YieldEvery(32);
    for (let i = 0; i < this.words.length; i++) {
      await slice.step();
      if (taken.has(i)) continue;
      const group = [i];
      for (let j = i + 1; j < this.words.length; j++) {
        if (!taken.has(j) && sameGroup(i, j) && this.similarity(i, j) >= threshold) group.push(j);
      }
      if (group.length > 1) {
        for (const index of group) taken.add(index);
        groups.push(group);
      }
    }
    return groups;
  }
}
