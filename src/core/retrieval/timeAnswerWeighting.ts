/**
 * A question that asks for a time ("when did we move to Postgres?", "how long has the cache been
 * on?", "what year did …") is answered by a memory that says when: "we moved last Tuesday", "I've
 * had them for 3 years now" (timeMentions.ts). Among the memories that match the question, those
 * whose text states no time are the weaker answers: their score is divided by TIME_BOOST (the
 * multiplier a vague time gives the memories near it). Lowering the others rather than raising these
 * keeps scores within [0, 1] without capping, which would tie the best matches at 1. It reorders
 * matches only: the relevance floor reads the gate, which this does not change, so a memory that
 * states a time but does not match the question is no answer, and one that matches but states no
 * time still is.
 *
 * Measured on LoCoMo's development split (issue 30 point 4): of the evidence turns of its temporal
 * questions, 85 % state a time, against 12 % of all turns, alike on the tuning and the other
 * conversations (docs/retrieval.md).
 */
import type { CandidateRows } from './candidateRows.ts';
import { byScore, type RankedCandidate } from './scoredMemory.ts';
import { mentionsTime } from './timeMentions.ts';
import { TIME_BOOST } from './vagueTimeSignal.ts';

/**
 * The question's first words ask for a time: "when", "since when", "how long", "what/which year
 * (month, day, date, week, weekend, time)", optionally after "in"/"on"/"during"/"by". A "when" inside
 * a sentence ("what do we do when production is down") asks for no time.
 */
const ASKS_FOR_TIME =
  /^[^\p{L}\p{N}]*(?:(?:since|until|till)\s+when\b|when\b|how\s+long\b|(?:(?:in|on|during|by)\s+)?(?:what|which)\s+(?:year|month|day|date|week|weekend|time|season)s?\b)/u;

export function asksForTime(query: string): boolean {
  return ASKS_FOR_TIME.test(query.normalize('NFKC').toLowerCase());
}

/**
 * For a question asking for a time, or naming a time the memories hold (`namesHeldWindow`: "What
 * dish did Nate make on 9 November?", "Where was Tim in the week before 16 November?" ask what
 * happened then, and the turn that tells it says when: "I tried out some cooking this week", "I
 * went to a castle … last Friday"), the candidates that can still reach the first `limit` have
 * their rows read, and those stating no time lose ×1/TIME_BOOST; leaves `scored` sorted. The
 * limit-th score falls at most to its TIME_BOOST-th part, so a candidate scoring below that cannot
 * reach the results and is not read: it is weighed as stating none, which keeps it below every
 * candidate read. Other questions cost nothing.
 */
export async function weighTimeAnswers(
  query: string,
  scored: RankedCandidate[],
  limit: number,
  rows: CandidateRows,
  namesHeldWindow = false,
): Promise<void> {
  if (scored.length === 0 || !(namesHeldWindow || asksForTime(query))) return;
  const reach = scored[Math.min(limit, scored.length) - 1].score / TIME_BOOST;
  const reachable = scored.filter((entry) => entry.score >= reach);
  // A memory forgotten since it was scored has no row: it is left out when the answer's rows are read.
  const stating = new Set(
    (await rows.readAll(reachable))
      .filter((entry) => mentionsTime(entry.memory.content))
      .map((entry) => entry.facts.memory_id),
  );
  for (const entry of scored) {
    if (stating.has(entry.facts.memory_id)) entry.breakdown.signals.push('states_time');
    else entry.score /= TIME_BOOST;
  }
  scored.sort(byScore);
}
