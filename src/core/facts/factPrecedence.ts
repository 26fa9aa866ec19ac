import { layerPrecedence } from '../domain/layers.ts';
import type { Fact } from './factModel.ts';

export interface EffectiveFact<F extends Fact = Fact> {
  fact: F;
  /** Values of the same key in less specific layers that this one overrides. */
  overridden: F[];
}

/**
 * One value per category/key across layers: the most specific layer's active value wins
 * (seed 001 override behaviour, the tabs-vs-spaces example), the others are kept as overridden.
 */
export function effectiveFacts<F extends Fact>(facts: readonly F[]): EffectiveFact<F>[] {
  const byKey = new Map<string, F[]>();
  for (const fact of facts) {
    if (!fact.active) continue;
    const key = `${fact.category}/${fact.key}`;
    const list = byKey.get(key);
    if (list) list.push(fact);
    else byKey.set(key, [fact]);
  }
  return [...byKey.values()].map((values) => {
    // Within one layer the newest value is the active one; an import can leave two behind.
    const ordered = [...values].sort(
      (a, b) => layerPrecedence(a.layer) - layerPrecedence(b.layer) || b.created_at.localeCompare(a.created_at),
    );
    return { fact: ordered[0], overridden: ordered.slice(1) };
  });
}
