import type { ContextWeightKey } from '../api/contextApi.ts';

/**
 * The context sources a call switched off: a `context_weights` entry of exactly 0 means "none of
 * this", not "a little less of it". Any other weight only reorders (typeWeights.ts bounds every
 * multiplier to [0.5, 1] so a strong match of a low-weight type can still win), so without this
 * rule a caller had no way to keep, say, working memory out of an answer.
 */
export function excludedSources(weights: Partial<Record<ContextWeightKey, number>>): ReadonlySet<ContextWeightKey> {
  const excluded = new Set<ContextWeightKey>();
  for (const [key, value] of Object.entries(weights) as Array<[ContextWeightKey, number | undefined]>) {
    if (value === 0) excluded.add(key);
  }
  return excluded;
}
