/**
 * Similarity of two texts without vectors, for near-duplicate detection when no embedding
 * provider is configured: cosine over word counts, 1.0 for identical normalised text.
 */
export function textSimilarity(a: string, b: string): number {
  return wordCountSimilarity(wordCounts(a), wordCounts(b));
}

/** The words of a text and how often each occurs: what `textSimilarity` compares. */
export type WordCounts = ReadonlyMap<string, number>;

/**
 * `textSimilarity` over counts already taken: a text compared with several others (a memory being
 * stored against its duplicate candidates) is split and normalised once, not once per comparison.
 */
export function wordCountSimilarity(left: WordCounts, right: WordCounts): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [word, count] of left) {
    leftNorm += count * count;
    dot += count * (right.get(word) ?? 0);
  }
  for (const count of right.values()) rightNorm += count * count;
  if (leftNorm === 0 || rightNorm === 0) return 0;
  return dot / Math.sqrt(leftNorm * rightNorm);
}

export function wordCounts(text: string): WordCounts {
  const counts = new Map<string, number>();
  for (const word of text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}_]+/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
