import type { ScoreBreakdown } from '../api/longTermApi.ts';
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { MatchSignals, SignalContext } from './signals/rankingSignal.ts';
import { RANKING_SIGNALS } from './signals/rankingSignals.ts';
import { fuseTextAndSemantic } from './signals/semanticFusion.ts';

export type { MatchSignals } from './signals/rankingSignal.ts';
export { RECENCY_HALF_LIFE_DAYS } from './signals/recencySignal.ts';
export { MAX_ACCESS_COUNT } from './signals/accessFrequencySignal.ts';

/**
 * Composite relevance (seed 000 §8.1) rebuilt as a match score times bounded multipliers:
 * the match (text and semantic) decides whether a memory is about the query at all, and
 * the ranking signals (signals/rankingSignals.ts: recency, importance, frequency, type, entities,
 * confidence) only reorder close matches. Plain weighted sums let an important but unrelated
 * memory outrank the answer; the peers that kept multipliers bounded did not have that failure.
 */
export function scoreMemory(
  memory: RankingFacts,
  match: MatchSignals,
  typeMultiplier: number,
  now: Date,
): { score: number; breakdown: ScoreBreakdown } {
  const matchScore = fuseTextAndSemantic(match.text, match.semantic);
  const context: SignalContext = { memory, match, typeMultiplier, now };
  let multiplier = 1;
  const values = {} as Record<(typeof RANKING_SIGNALS)[number]['field'], number>;
  for (const signal of RANKING_SIGNALS) {
    const value = signal.value(context);
    values[signal.field] = round(value);
    multiplier *= signal.multiplier(value);
  }
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
      recency: values.recency,
      importance: values.importance,
      frequency: values.frequency,
      type_weight: values.type_weight,
      entity_match: values.entity_match,
      confidence: values.confidence,
      matched_terms: match.matched_terms,
      matched_entities: match.matched_entities,
      signals,
    },
  };
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
  if (breakdown.signals.includes('states_time')) parts.push('says when, as the question asks');
  if (breakdown.signals.includes('other_project'))
    parts.push('weak: about another project than the one the question names');
  if (breakdown.signals.includes('partial'))
    parts.push('partial match (below the relevance floor, beside a full match)');
  return parts.length > 0 ? parts.join('; ') : 'ranked by importance and recency';
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
