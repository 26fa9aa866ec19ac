/**
 * Similarity of two texts without vectors, for near-duplicate detection when no embedding
 * provider is configured: cosine over word counts, 1.0 for identical normalised text.
 */
export function textSimilarity(a: string, b: string): number {
  const left = wordCounts(a);
  const right = wordCounts(b);
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

function wordCounts(text: string): Map<string, number> {
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
