import type { OverriddenMemory } from '../api/layersApi.ts';
import { layerPrecedence } from '../domain/layers.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { detectContradiction } from '../lifecycle/contradictions.ts';
import { textSimilarity } from '../longterm/textSimilarity.ts';

/**
 * Why `general` gives way to `specific` (seed 001 Override Behavior), or null when both can stand.
 * Across layers a weak contradiction counts too: "indentation uses tabs" in the project and
 * "spaces" in the company are about the same setting, and the project is the one that applies.
 */
export function layerConflict(
  specific: Pick<MemoryRecord, 'content' | 'metadata' | 'memory_category'>,
  general: Pick<MemoryRecord, 'content' | 'metadata' | 'memory_category'>,
  duplicateThreshold: number,
): string | null {
  const contradiction = detectContradiction(general, specific);
  if (contradiction) return contradiction.reason;
  const similarity = textSimilarity(specific.content, general.content);
  return similarity >= duplicateThreshold ? `Same memory (similarity ${similarity.toFixed(2)}).` : null;
}

/**
 * Merges results of several layers, best first (seed 001 Merge Algorithm), keeping relevance as
 * the order: a result gives way only to a conflicting result of a more specific layer, which then
 * carries it in `overrides`. Within one layer nothing is hidden; corrections there go through
 * supersedes when they are stored.
 */
export function mergeByPrecedence<T extends { memory: MemoryRecord; score: number }>(
  ranked: readonly T[],
  duplicateThreshold: number,
): { kept: T[]; overrides: Map<string, OverriddenMemory[]> } {
  const overrides = new Map<string, OverriddenMemory[]>();
  if (new Set(ranked.map((entry) => entry.memory.layer)).size < 2) return { kept: [...ranked], overrides };
  const kept: T[] = [];
  const note = (winner: T, loser: T, reason: string): void => {
    const list = overrides.get(winner.memory.memory_id) ?? [];
    list.push({ memory_id: loser.memory.memory_id, layer: loser.memory.layer, content: loser.memory.content, reason });
    for (const inherited of overrides.get(loser.memory.memory_id) ?? []) list.push(inherited);
    overrides.delete(loser.memory.memory_id);
    overrides.set(winner.memory.memory_id, list);
  };
  for (const candidate of ranked) {
    let standing = true;
    for (let i = 0; i < kept.length && standing; i++) {
      const other = kept[i];
      const order = layerPrecedence(candidate.memory.layer) - layerPrecedence(other.memory.layer);
      if (order === 0) continue;
      const [specific, general] = order < 0 ? [candidate, other] : [other, candidate];
      const reason = layerConflict(specific.memory, general.memory, duplicateThreshold);
      if (reason === null) continue;
      if (specific === candidate) {
        // The more specific memory takes the place of the general one it overrides.
        note(candidate, other, reason);
        kept.splice(i, 1);
        i--;
      } else {
        note(other, candidate, reason);
        standing = false;
      }
    }
    if (standing) kept.push(candidate);
  }
  kept.sort((a, b) => b.score - a.score);
  return { kept, overrides };
}
