/**
 * Neighbour expansion within a conversation: the top text hits lend part of their score to the
 * turns stored right before and after them in the same conversation, since in a dialogue the answer
 * often sits in the turn next to the one that shares the question's words (neighbourExpansion.ts).
 * Only dialog turns the client marked as one conversation are joined (conversationKey.ts), never
 * memories merely stored close in time.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { LexicalHit, MemoryFilter } from '../ports/memoryStore.ts';
import { conversationKey } from './conversationKey.ts';
import { expandWithNeighbours } from './neighbourExpansion.ts';

/**
 * Share of a hit's score each adjacent turn of its conversation receives (two steps away, its
 * square). Chosen on the LoCoMo tuning conversations: 0.7 -> 0.8 raised recall@10 there, 0.9 and
 * above let neighbours crowd out the turns that match (recall@1 falls).
 */
const NEIGHBOUR_DECAY = 0.8;
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

export interface WithNeighbours {
  /** The hits with their neighbours, best first. */
  hits: LexicalHit[];
  /** Memories that received a share of a neighbour's score (signal "neighbour"). */
  lentTo: Set<string>;
}

/** `ranked` best first; fetches the neighbours' records into `records`. Off when config.neighbourRadius is 0. */
export async function lendToNeighbours(
  deps: Pick<CoreDeps, 'store' | 'config'>,
  filter: MemoryFilter,
  ranked: readonly LexicalHit[],
  limit: number,
  records: Map<string, MemoryRecord>,
): Promise<WithNeighbours> {
  if (deps.config.neighbourRadius <= 0) return { hits: [...ranked], lentTo: new Set<string>() };
  const seeds = ranked.slice(0, Math.max(2 * limit, NEIGHBOUR_MIN_SEEDS)).filter((hit) => hit.score > 0);
  const turnSeeds = seeds.filter((hit) => {
    const record = records.get(hit.memory_id);
    return record !== undefined && conversationKey(record) !== null;
  });
  if (turnSeeds.length === 0) return { hits: [...ranked], lentTo: new Set() };
  const windows = await deps.store.adjacentMemories(
    filter,
    turnSeeds.map((hit) => hit.memory_id),
    deps.config.neighbourRadius,
    CONVERSATION_GAP_MS,
  );
  const missing = [...new Set([...windows.values()].flatMap((window) => [...window.before, ...window.after]))].filter(
    (id) => !records.has(id),
  );
  if (missing.length > 0)
    for (const memory of await deps.store.getMemories(filter.user_id, missing)) records.set(memory.memory_id, memory);
  const adjacency = new Map<string, Set<string>>();
  const follows = new Set<string>();
  const link = (a: string, b: string): void => {
    if (!adjacency.has(a)) adjacency.set(a, new Set());
    if (!adjacency.has(b)) adjacency.set(b, new Set());
    adjacency.get(a)!.add(b);
    adjacency.get(b)!.add(a);
  };
  for (const [id, window] of windows) {
    const key = conversationKey(records.get(id)!);
    for (const [chain, forward] of [
      [window.before, false],
      [window.after, true],
    ] as const) {
      let previous = id;
      for (const next of chain) {
        // The chain ends at the first memory that is not a turn of the same conversation.
        const neighbour = records.get(next);
        if (!neighbour || conversationKey(neighbour) !== key) break;
        link(previous, next);
        follows.add(forward ? `${previous}>${next}` : `${next}>${previous}`);
        previous = next;
      }
    }
  }
  // The turn right after a question is its likely answer: it gets ANSWER_SHARE of the question's score.
  const expanded = expandWithNeighbours(
    seeds,
    (id) => [...(adjacency.get(id) ?? [])],
    { combine: 'or', decay: NEIGHBOUR_DECAY },
    (from, to) =>
      follows.has(`${from}>${to}`) && isQuestion(records.get(from)!.content) ? ANSWER_SHARE / NEIGHBOUR_DECAY : 1,
  );
  const seedIds = new Set(seeds.map((hit) => hit.memory_id));
  const reached = new Set(expanded.map((entry) => entry.memory_id));
  const rest = ranked.filter((hit) => !reached.has(hit.memory_id));
  const lentTo = new Set(expanded.filter((entry) => !seedIds.has(entry.memory_id)).map((entry) => entry.memory_id));
  return { hits: [...expanded, ...rest].sort((a, b) => b.score - a.score), lentTo };
}

/** A dialog turn that asks something: its reply is likely the answer. */
function isQuestion(content: string): boolean {
  return content.includes('?');
}
