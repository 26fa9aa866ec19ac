import type { ScoreBreakdown } from '../api/longTermApi.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { ageInDays } from '../util/time.ts';

export const RECENCY_HALF_LIFE_DAYS = 30;
export const MAX_ACCESS_COUNT = 100;

export interface MatchSignals {
  /** Lexical score normalised to [0, 1] within the query. */
  text: number;
  /** Cosine similarity mapped to [0, 1], or null when the memory had no comparable vector. */
  semantic: number | null;
  matched_terms: string[];
  matched_entities: string[];
  /** How many of the query's focus entities the memory carries, as a share in [0, 1]. */
  entity_share: number;
}

/**
 * Composite relevance (seed 000 §8.1) rebuilt as a match score times bounded multipliers:
 * the match (text and semantic) decides whether a memory is about the query at all, and
 * recency, importance, frequency, type and confidence only reorder close matches. Plain
 * weighted sums let an important but unrelated memory outrank the answer; the peers that
 * kept multipliers bounded did not have that failure.
 */
export function scoreMemory(
  memory: MemoryRecord,
  match: MatchSignals,
  typeMultiplier: number,
  now: Date,
): { score: number; breakdown: ScoreBreakdown } {
  const matchScore = fuse(match.text, match.semantic);
  const recency = Math.exp((-ageInDays(memory.last_accessed, now) * Math.LN2) / RECENCY_HALF_LIFE_DAYS);
  const frequency = Math.log(1 + memory.access_count) / Math.log(1 + MAX_ACCESS_COUNT);
  const importance = memory.pinned ? 1 : memory.importance * memory.decay_factor;
  const multiplier =
    (0.9 + 0.1 * recency) *
    (0.85 + 0.3 * importance) *
    (0.95 + 0.05 * Math.min(1, frequency)) *
    typeMultiplier *
    (1 + 0.3 * match.entity_share) *
    (0.7 + 0.3 * memory.confidence);
  const score = Math.min(1, Math.max(0, Math.min(1, matchScore) * multiplier));
  const signals: ScoreBreakdown['signals'] = [];
  if (match.text > 0) signals.push('text');
  if (match.semantic !== null && match.semantic > 0) signals.push('semantic');
  if (match.matched_entities.length > 0) signals.push('entity');
  if (memory.pinned) signals.push('pinned');
  return {
    score,
    breakdown: {
      text_match: round(match.text),
      semantic: match.semantic === null ? null : round(match.semantic),
      recency: round(recency),
      importance: round(importance),
      frequency: round(Math.min(1, frequency)),
      type_weight: round(typeMultiplier),
      entity_match: round(match.entity_share),
      confidence: round(memory.confidence),
      matched_terms: match.matched_terms,
      matched_entities: match.matched_entities,
      signals,
    },
  };
}

/**
 * Full-text and semantic evidence in one match score. A memory matched by text keeps its text
 * score, nudged by about ±5 % by its semantic similarity (neutral at 0.5, so a memory without a
 * vector is neither favoured nor punished); a memory found only by its vector (above
 * min_similarity) enters below an equally strong text match. Chosen on the LoCoMo tuning
 * conversations with the deterministic test vectors: vectors that carry no meaning beyond the
 * words barely move recall, while a real model's paraphrase hits still surface.
 */
function fuse(text: number, semantic: number | null): number {
  if (semantic === null) return text;
  return text > 0 ? (text * (0.9 + 0.1 * semantic)) / 0.95 : 0.8 * semantic;
}

export function explainMatch(breakdown: ScoreBreakdown, bridges: readonly string[] = []): string {
  const parts: string[] = [];
  if (breakdown.matched_terms.length > 0) parts.push(`matched terms ${breakdown.matched_terms.slice(0, 6).join(', ')}`);
  if (bridges.length > 0) parts.push(`through ${bridges.slice(0, 4).join(', ')}`);
  if (breakdown.semantic !== null && breakdown.semantic > 0)
    parts.push(`semantic similarity ${breakdown.semantic.toFixed(2)}`);
  if (breakdown.matched_entities.length > 0) parts.push(`entities ${breakdown.matched_entities.join(', ')}`);
  if (breakdown.signals.includes('pinned')) parts.push('pinned');
  if (breakdown.signals.includes('neighbour')) parts.push('next to a matching memory of the same conversation');
  if (breakdown.signals.includes('time')) parts.push('from the time asked about');
  if (breakdown.signals.includes('other_project'))
    parts.push('weak: about another project than the one the question names');
  if (breakdown.signals.includes('partial'))
    parts.push('partial match (below the relevance floor, beside a full match)');
  return parts.length > 0 ? parts.join('; ') : 'ranked by importance and recency';
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
