import type { ContextItem } from '../api/contextApi.ts';
import type { Candidate } from './contextCandidates.ts';

/** Each further pick from the same memory type is worth a little less, so the budget holds a mix. */
const SAME_TYPE_DISCOUNT = 0.92;

/** A candidate made safe and measured (its token count known). */
export interface Measured extends Candidate {
  item: ContextItem;
}

/** Takes candidates in the given order while they fit. */
export function packInOrder(candidates: readonly Measured[], budget: number): Measured[] {
  const selected: Measured[] = [];
  let used = 0;
  for (const candidate of candidates) {
    if (used + candidate.item.token_count > budget) continue;
    selected.push(candidate);
    used += candidate.item.token_count;
  }
  return selected;
}

/**
 * Greedy packing by score with a same-type discount; items that do not fit are skipped, not
 * truncated. Candidates are visited best first and measured (made safe, tokens counted) only
 * when they could still be the next pick, so a call counts tokens of a few dozen items, not all.
 */
export function pack(
  candidates: readonly Candidate[],
  budget: number,
  measure: (candidate: Candidate) => Measured,
): Measured[] {
  const remaining = [...candidates].sort((a, b) => b.score - a.score);
  const selected: Measured[] = [];
  const perType = new Map<string, number>();
  let used = 0;
  while (remaining.length > 0) {
    let bestIndex = -1;
    let bestScore = -1;
    for (let index = 0; index < remaining.length; index++) {
      const candidate = remaining[index];
      // The discount only lowers scores: nothing after this can beat the best found so far.
      if (candidate.score <= bestScore) break;
      const adjusted = candidate.score * SAME_TYPE_DISCOUNT ** (perType.get(candidate.typeKey) ?? 0);
      if (adjusted <= bestScore || used + measure(candidate).item.token_count > budget) continue;
      bestScore = adjusted;
      bestIndex = index;
    }
    if (bestIndex < 0) break;
    const [chosen] = remaining.splice(bestIndex, 1);
    const item = measure(chosen);
    selected.push(item);
    used += item.item.token_count;
    perType.set(chosen.typeKey, (perType.get(chosen.typeKey) ?? 0) + 1);
  }
  return selected;
}
