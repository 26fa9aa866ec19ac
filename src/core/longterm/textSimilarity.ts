/**
 * Similarity of two texts without vectors, for near-duplicate detection when no embedding
 * provider is configured: cosine over word counts, 1.0 for identical normalised text.
 */
export function textSimilarity(a: string, b: string): number {
  return similarityToText(wordCounts(a), b);
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

/**
 * `wordCountSimilarity(left, wordCounts(text))`, the same number, without a map of the text's words:
 * they are sorted, so each distinct word is one run whose length is its count. A memory being stored
 * is compared with several candidates (twice: the search, then the check inside the write), and a
 * map per candidate was most of what that comparison allocated.
 */
export function similarityToText(left: WordCounts, text: string): number {
  const words = wordsOf(text).sort();
  let dot = 0;
  let rightNorm = 0;
  for (let start = 0; start < words.length;) {
    let end = start + 1;
    while (end < words.length && words[end] === words[start]) end++;
    const count = end - start;
    rightNorm += count * count;
    dot += count * (left.get(words[start]) ?? 0);
    start = end;
  }
  let leftNorm = 0;
  for (const count of left.values()) leftNorm += count * count;
  if (leftNorm === 0 || rightNorm === 0) return 0;
  return dot / Math.sqrt(leftNorm * rightNorm);
}

export function wordCounts(text: string): WordCounts {
  const counts = new Map<string, number>();
  for (const word of wordsOf(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

const WORD = /[\p{L}\p{N}_]+/gu;

/** The words `textSimilarity` compares: NFKC, lower case, runs of letters, digits and underscores. */
function wordsOf(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
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
