/**
 * Neighbour expansion within a conversation: the top text hits lend part of their score to the
 * turns stored right before and after them in the same conversation, since in a dialogue the answer
 * often sits in the turn next to the one that shares the question's words (neighbourExpansion.ts).
 * Only dialog turns the client marked as one conversation are joined (dialogTurn.ts), never
 * memories merely stored close in time.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { TurnFacts } from '../domain/dialogTurn.ts';
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { LexicalHit, MemoryFilter } from '../ports/memoryStore.ts';
import { expandWithNeighbours } from './neighbourExpansion.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';
import { IN_WINDOW_TERM } from './timeWindow.ts';

/**
 * Share of a hit's score each adjacent turn of its conversation receives (two steps away, its
 * square). Chosen leaving one LoCoMo conversation out (bench/locomo/neighbourHoldout.ts, issue 30):
 * every fold chose 0.7 on the other four, and the held-out conversations' recall@10 rose 78.5 ->
 * 78.9 (0.8 had been chosen on the tuning pair alone); 0.9 and above let neighbours crowd out the
 * turns that match.
 */
const NEIGHBOUR_DECAY = 0.7;
/**
 * Share of a question turn's score the next turn of its conversation receives: the reply to a
 * question is where its answer usually is, so it gets more than NEIGHBOUR_DECAY, and a little less
 * than the question, which still ranks first on its own words. LoCoMo, 0.8 -> 0.96: recall@10
 * 76.2 -> 77.5, @5 66.5 -> 67.8; 1.0 made replies overtake their questions (temporal @1 62 -> 49).
 */
const ANSWER_SHARE = 0.96;
/** The fewest top hits that lend score to their neighbours. */
const NEIGHBOUR_MIN_SEEDS = 20;
/** Turns of one conversation further apart in time than this are not adjacent (a new sitting). */
const CONVERSATION_GAP_MS = 2 * 60 * 60 * 1000;

const NO_NEIGHBOURS: ReadonlySet<string> = new Set();

/** The constants above, as one value an evaluation may replace (tuneNeighboursForEvaluation). */
export interface NeighbourTuning {
  decay: number;
  answerShare: number;
  minSeeds: number;
  /** Steps a score travels; null: the configured neighbourRadius. */
  hops: number | null;
}

export const PRODUCT_NEIGHBOUR_TUNING: Readonly<NeighbourTuning> = {
  decay: NEIGHBOUR_DECAY,
  answerShare: ANSWER_SHARE,
  minSeeds: NEIGHBOUR_MIN_SEEDS,
  hops: null,
};
let tuning: Readonly<NeighbourTuning> = PRODUCT_NEIGHBOUR_TUNING;

/**
 * For held-out checks only (bench/locomo/neighbourHoldout.ts): replaces the constants so a check
 * can choose them on some conversations and measure them on others; null restores the product's.
 * Nothing in the product calls it.
 */
export function tuneNeighboursForEvaluation(next: Partial<NeighbourTuning> | null): void {
  tuning = next === null ? PRODUCT_NEIGHBOUR_TUNING : { ...PRODUCT_NEIGHBOUR_TUNING, ...next };
}

export interface WithNeighbours {
  /** The hits with their neighbours, best first. */
  hits: LexicalHit[];
  /** Memories that received a share of a neighbour's score (signal "neighbour"). */
  lentTo: Set<string>;
}

/**
 * Neighbour expansion on the memories' turn facts (conversation key, question flag, kept by the
 * store beside its index): which seeds are turns, where a chain of turns ends and which turn asks
 * something are decided without reading a row — the seeds' from their ranking facts in `facts`, the
 * neighbours' from MemoryStore.turnFacts. `ranked` best first; of the neighbours it brings in, only
 * those among the first `pool` results (the ones recall goes on to score) have their ranking facts
 * read into `facts`, and one forgotten meanwhile is dropped. `inWindow`: the hits that cover the time
 * the question names (neighbourExpansion.ts, addsEvidence). Off when config.neighbourRadius is 0.
 */
export async function lendToNeighbours(
  deps: Pick<CoreDeps, 'store' | 'config'>,
  filter: MemoryFilter,
  ranked: readonly LexicalHit[],
  limit: number,
  pool: number,
  facts: Map<string, RankingFacts>,
  inWindow: ReadonlySet<string> = new Set(),
): Promise<WithNeighbours> {
  const radius = tuning.hops ?? deps.config.neighbourRadius;
  if (deps.config.neighbourRadius <= 0 || radius <= 0 || !timeRuleOn('conversationNeighbours'))
    return { hits: [...ranked], lentTo: new Set<string>() };
  const seeds = ranked.slice(0, Math.max(2 * limit, tuning.minSeeds)).filter((hit) => hit.score > 0);
  const turns = new Map<string, TurnFacts>();
  for (const hit of seeds) {
    const known = facts.get(hit.memory_id);
    if (known !== undefined) turns.set(hit.memory_id, known);
  }
  const turnSeeds = seeds.filter((hit) => (turns.get(hit.memory_id)?.conversation ?? null) !== null);
  if (turnSeeds.length === 0) return { hits: [...ranked], lentTo: new Set() };
  const windows = await deps.store.adjacentMemories(
    filter,
    turnSeeds.map((hit) => hit.memory_id),
    radius,
    CONVERSATION_GAP_MS,
  );
  const unknown = [...new Set([...windows.values()].flatMap((window) => [...window.before, ...window.after]))].filter(
    (id) => !turns.has(id),
  );
  if (unknown.length > 0)
    for (const [id, turn] of await deps.store.turnFacts(filter.user_id, unknown)) turns.set(id, turn);
  const adjacency = new Map<string, Set<string>>();
  // The turn each turn is followed by, per turn: a key of both ids joined cost a new string per
  // link and per lookup (400 links for the 100 seeds of a LoCoMo question asked with limit 50).
  const follows = new Map<string, Set<string>>();
  const follow = (from: string, to: string): void => {
    const after = follows.get(from);
    if (after === undefined) follows.set(from, new Set([to]));
    else after.add(to);
  };
  const link = (a: string, b: string): void => {
    if (!adjacency.has(a)) adjacency.set(a, new Set());
    if (!adjacency.has(b)) adjacency.set(b, new Set());
    adjacency.get(a)!.add(b);
    adjacency.get(b)!.add(a);
  };
  for (const [id, window] of windows) {
    const key = turns.get(id)?.conversation ?? null;
    if (key === null) continue;
    for (const [chain, forward] of [
      [window.before, false],
      [window.after, true],
    ] as const) {
      let previous = id;
      for (const next of chain) {
        // The chain ends at the first memory that is not a live turn of the same conversation.
        if (turns.get(next)?.conversation !== key) break;
        link(previous, next);
        if (forward) follow(previous, next);
        else follow(next, previous);
        previous = next;
      }
    }
  }
  // The turn right after a question is its likely answer: it gets ANSWER_SHARE of the question's score.
  const expanded = expandWithNeighbours(
    seeds,
    // The set itself, in the order its turns were linked: no copy per step of the walk.
    (id) => adjacency.get(id) ?? NO_NEIGHBOURS,
    { combine: 'or', decay: tuning.decay, ...(tuning.hops === null ? {} : { hops: tuning.hops }) },
    (from, to) =>
      timeRuleOn('neighbourReplyShare') && follows.get(from)?.has(to) === true && turns.get(from)!.question
        ? tuning.answerShare / tuning.decay
        : 1,
    // A turn from the time asked about covers that time too: two such turns sharing one word are more than the word.
    (hit) => (inWindow.has(hit.memory_id) ? [...hit.matched_terms, IN_WINDOW_TERM] : hit.matched_terms),
  );
  const seedIds = new Set(seeds.map((hit) => hit.memory_id));
  const reached = new Set(expanded.map((entry) => entry.memory_id));
  const rest = ranked.filter((hit) => !reached.has(hit.memory_id));
  const hits = [...expanded, ...rest].sort((a, b) => b.score - a.score);
  const lentTo = new Set(expanded.filter((entry) => !seedIds.has(entry.memory_id)).map((entry) => entry.memory_id));
  const forgotten = await readReturnedFacts(deps, filter.user_id, hits.slice(0, pool), lentTo, facts);
  if (forgotten.size === 0) return { hits, lentTo };
  for (const id of forgotten) lentTo.delete(id);
  return { hits: hits.filter((hit) => !forgotten.has(hit.memory_id)), lentTo };
}

/**
 * Ranking facts of the neighbours among `returned` that no earlier stage read; the ids of those
 * forgotten or erased since their turn facts were read (a neighbour is live when expanded, or not at all).
 */
async function readReturnedFacts(
  deps: Pick<CoreDeps, 'store'>,
  userId: string,
  returned: readonly LexicalHit[],
  lentTo: ReadonlySet<string>,
  facts: Map<string, RankingFacts>,
): Promise<Set<string>> {
  const missing = returned.map((hit) => hit.memory_id).filter((id) => lentTo.has(id) && !facts.has(id));
  const gone = new Set(missing);
  if (missing.length === 0) return gone;
  for (const [id, found] of await deps.store.rankingFacts(userId, missing)) {
    facts.set(id, found);
    gone.delete(id);
  }
  return gone;
}
