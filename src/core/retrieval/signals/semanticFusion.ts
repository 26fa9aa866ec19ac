/**
 * Full-text and semantic evidence in one match score. A memory matched by text keeps its text
 * score, nudged by about ±5 % by its semantic similarity (neutral at 0.5, so a memory without a
 * vector is neither favoured nor punished); a memory found only by its vector (above
 * min_similarity) enters below an equally strong text match. Chosen on the LoCoMo tuning
 * conversations with the deterministic test vectors: vectors that carry no meaning beyond the
 * words barely move recall, while a real model's paraphrase hits still surface.
 */
export function fuseTextAndSemantic(text: number, semantic: number | null): number {
  if (semantic === null) return text;
  return text > 0 ? (text * (0.9 + 0.1 * semantic)) / 0.95 : 0.8 * semantic;
}
