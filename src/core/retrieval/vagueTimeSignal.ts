/**
 * A vague time in the question ("two weeks ago", "recently") names a point, not a calendar window:
 * memories that happened within a few days of it rank a little higher. A calendar window is part of
 * the question's coverage instead (timeWindow.ts).
 */
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { TimeHint } from './timeExpressions.ts';
import { happenedWithin } from './timeWindow.ts';

/** Multiplier of a memory near the vague time the query names. */
export const TIME_BOOST = 1.15;
/** Half-width of the window boosted around a point in time such as "two weeks ago". */
const AROUND_MS = 3.5 * 86_400_000;

/** The interval around a vague time; null when the query names none. */
export interface VagueTime {
  after: string | undefined;
  before: string | undefined;
}

export function vagueTimeOf(timeHint: TimeHint): VagueTime | null {
  const around = timeHint.boostAround ? Date.parse(timeHint.boostAround) : null;
  return around !== null
    ? { after: new Date(around - AROUND_MS).toISOString(), before: new Date(around + AROUND_MS).toISOString() }
    : null;
}

/** The memory happened near the vague time the query names. */
export function nearVagueTime(memory: Pick<RankingFacts, 'happened_ms'>, hint: VagueTime | null): boolean {
  return hint !== null && happenedWithin(memory.happened_ms, hint.after, hint.before);
}
