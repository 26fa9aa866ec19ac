/**
 * The members of a calendar window that are on the query's topic, found even when the lexical
 * search did not bring them in. A topical question with a window ("where did Joanna travel in July
 * 2022?") ranks the topic's memories of that time first (timeWindow.ts), but only among the lexical
 * pool: when the topic's words are common, the one memory of July that names them can rank below
 * the pool's cut on BM25 alone and never be seen. When the pool is full (so some memories sharing
 * the words were cut) and the window is small, its members are read and each that shares a search
 * term with the query joins the candidates as a lexical hit with the terms it shares. A large window
 * is left alone: reading it would cost more than the search, and its topic members are then as
 * likely to be cut as any others.
 */
import type { MemoryRecord } from '../domain/records.ts';
import type { LexicalHit, WeightedTerm } from '../ports/memoryStore.ts';
import { analyzeDocument } from '../text/analyzer.ts';
import { searchKeysOf } from '../text/searchKeys.ts';
import { normalizeText } from '../text/tokenizer.ts';

/**
 * The most members a window may have to be read for its topic members. About the cost of the
 * lexical search itself at 100,000 memories (analysing a member is a few microseconds); a day of a
 * busy store is larger, a day or a week of a conversation smaller.
 */
export const SMALL_WINDOW = 400;

/** Whether the window's members are worth reading for the topic: the pool was cut, the window is small. */
export function readsWindowTopic(
  topical: boolean,
  poolSize: number,
  candidateLimit: number,
  inWindow: number,
): boolean {
  return topical && poolSize >= candidateLimit && inWindow > 0 && inWindow <= SMALL_WINDOW;
}

/**
 * The window's `members` the pool does not hold that share a search term with the query, as lexical
 * hits. Their BM25 is not computed: a memory the full pool cut scores at most the pool's last hit,
 * which they are given, so among equal coverage they rank with the pool's weakest.
 */
export function windowTopicHits(
  members: readonly MemoryRecord[],
  terms: readonly WeightedTerm[],
  pool: readonly LexicalHit[],
): { hits: LexicalHit[]; members: MemoryRecord[] } {
  const pooled = new Set(pool.map((hit) => hit.memory_id));
  const asked = terms.filter((term) => term.weight > 0);
  const prefixes = asked.map((term) => term.term.slice(0, STEM_PREFIX));
  const lowest = pool.reduce((min, hit) => Math.min(min, hit.score), Infinity);
  const hits: LexicalHit[] = [];
  const kept: MemoryRecord[] = [];
  for (const memory of members) {
    if (pooled.has(memory.memory_id) || !mayHold(memory, prefixes)) continue;
    const own = analyzeDocument(memory).terms;
    const shared = asked.filter((term) => own.has(term.term)).map((term) => term.term);
    if (shared.length === 0) continue;
    hits.push({ memory_id: memory.memory_id, score: Number.isFinite(lowest) ? lowest : 0, matched_terms: shared });
    kept.push(memory);
  }
  return { hits, members: kept };
}

/**
 * A stem keeps its word's first letters (the stemmer rewrites endings; its few irregular forms such
 * as "dying" → "die" are the exception), so a memory whose folded text holds none of the terms'
 * first letters holds none of the terms: analysing a member costs about eight times this test
 * (400 turns: 4.5 ms against 0.6), and most of a window is off the topic.
 */
const STEM_PREFIX = 4;

function mayHold(memory: MemoryRecord, prefixes: readonly string[]): boolean {
  const fields = [
    memory.content,
    memory.summary ?? '',
    ...memory.entities,
    ...memory.tags,
    ...searchKeysOf(memory.metadata),
  ];
  const text = normalizeText(fields.join(' ')).toLowerCase();
  return prefixes.some((prefix) => text.includes(prefix));
}
