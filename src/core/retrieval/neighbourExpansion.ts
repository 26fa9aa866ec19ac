/**
 * Neighbour expansion: in a conversation the answer often sits in the turn next to the one
 * that matches the question's words (a question, then its answer). Each hit lends a decayed
 * share of its score to its neighbours (same session, adjacent in creation order), so those
 * turns can enter the top-k even when they share no term with the query.
 */
export interface RankedHit {
  memory_id: string;
  score: number;
  matched_terms: string[];
}

export interface NeighbourOptions {
  /** Share of a hit's score lent to each neighbour, 0..1. */
  decay: number;
  /**
   * 'max': a document scores the best of its own score and its lent scores (a neighbour never
   * outranks the hit it came from). 'sum': own score plus the best lent score, which also
   * lifts hits whose neighbours match (a matching run of turns beats an isolated one). 'or':
   * like 'sum' but for scores on an absolute 0..1 scale, 1 - (1 - own)(1 - lent), so the result
   * stays on that scale.
   */
  combine: 'max' | 'sum' | 'or';
  /** How many neighbour steps a score travels; each step multiplies it by `decay` again. */
  hops: number;
}

/**
 * Chosen on the LoCoMo tuning conversations (bench/lexical-locomo.ts): 'sum' beat 'max' at every
 * decay; recall@10 plateaus for decay 0.7-0.9 with 2 hops, and this is the plateau's low end.
 */
export const DEFAULT_NEIGHBOURS: NeighbourOptions = { decay: 0.7, combine: 'sum', hops: 2 };

/**
 * `edgeShare(from, to)` scales the decay of one step (the reply to a question gets more of it);
 * a neighbour never receives more than the turn it is lent from. `evidence(hit)`: what the hit
 * matched of the query (its words by default; the caller may add what else it covers, such as the
 * time asked about), for the rule of `addsEvidence`.
 */
export function expandWithNeighbours(
  hits: readonly RankedHit[],
  neighbours: (docId: string) => Iterable<string>,
  options?: Partial<NeighbourOptions>,
  edgeShare: (from: string, to: string) => number = () => 1,
  evidence: (hit: RankedHit) => readonly string[] = (hit) => hit.matched_terms,
): RankedHit[] {
  const { decay, combine, hops } = { ...DEFAULT_NEIGHBOURS, ...options };
  const own = new Map(hits.map((hit) => [hit.memory_id, hit]));
  const lent = new Map<string, number>();
  // The best share lent by a hit that adds evidence to the receiver's own (addsEvidence): only it adds to the own score.
  const adding = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  hits.forEach((hit, rank) => {
    if (!firstSeen.has(hit.memory_id)) firstSeen.set(hit.memory_id, rank);
  });
  hits.forEach((hit, rank) => {
    // Breadth-first over `hops` steps; a document keeps the best score lent to it.
    let frontier: Array<[string, number]> = [[hit.memory_id, hit.score]];
    const visited = new Set([hit.memory_id]);
    for (let step = 0; step < hops && frontier.length > 0; step++) {
      const next: Array<[string, number]> = [];
      for (const [id, held] of frontier) {
        for (const neighbour of neighbours(id)) {
          if (visited.has(neighbour)) continue;
          visited.add(neighbour);
          const share = Math.min(held, held * decay * edgeShare(id, neighbour));
          next.push([neighbour, share]);
          lent.set(neighbour, Math.max(lent.get(neighbour) ?? 0, share));
          const receiver = own.get(neighbour);
          if (receiver === undefined || addsEvidence(evidence(hit), evidence(receiver)))
            adding.set(neighbour, Math.max(adding.get(neighbour) ?? 0, share));
          if (!firstSeen.has(neighbour)) firstSeen.set(neighbour, rank + 0.5);
        }
      }
      frontier = next;
    }
  });
  const ids = new Set([...own.keys(), ...lent.keys()]);
  const expanded = [...ids].map((id) => {
    const ownScore = own.get(id)?.score ?? 0;
    const lentScore = lent.get(id) ?? 0;
    const added = adding.get(id) ?? 0;
    const score =
      combine === 'max'
        ? Math.max(ownScore, lentScore)
        : Math.max(lentScore, combine === 'or' ? 1 - (1 - ownScore) * (1 - added) : ownScore + added);
    return { memory_id: id, score, matched_terms: own.get(id)?.matched_terms ?? [] };
  });
  // Ties keep the order in which documents were reached, so results are deterministic.
  return expanded.sort((a, b) => b.score - a.score || firstSeen.get(a.memory_id)! - firstSeen.get(b.memory_id)!);
}

/**
 * A neighbour's share adds to a turn's own score unless both matched the same single word of the
 * question and nothing else: a run of turns that each say "memory" is no more about "notifier
 * memory keeps growing" than one of them, and adding it let such a turn outrank a memory that names
 * the rarer word asked about (issue 30, rank 1). The turn then keeps the better of its own score
 * and the share. Runs sharing two or more words still add up: dropping those too (a neighbour adds
 * only with a word the turn lacks) cost LoCoMo R@10 80.9 -> 80.1 (tuning) and 80.0 -> 78.1 (other).
 */
export function addsEvidence(lender: readonly string[], receiver: readonly string[]): boolean {
  return !(lender.length === 1 && receiver.length === 1 && lender[0] === receiver[0]);
}
