/**
 * A memory is recorded when something is told, which is often after it happened: "I went to a
 * castle in the UK last Friday", stored on 16 November, tells of 10 November; "I got a puppy two
 * weeks ago", stored on 11 August, of late July. Its event_time (or creation time) is the telling, so
 * a question about the week of 10 November would not see it in its window. Temporal annotation
 * (TimeML) anchors such relative expressions to the time of the text; here, each candidate recorded
 * shortly after the window the question names has its time phrases read as of its own time
 * (timePhrasesOf), and one that names a time inside the window covers the window like a memory of it.
 *
 * A plan is told before: "we're going camping next weekend", said on Tuesday 9 May, is about 13-14
 * May; "my exam is on Friday", said on a Tuesday, about that coming Friday. A candidate recorded
 * shortly before the window has its phrases read ahead as of its own time (timePhrasesOf with
 * `ahead`), and only the ones that point ahead ("tomorrow", "next week", "in two weeks", "on Friday"
 * read as the coming one) or name a calendar date count: "last week" or "this month", said before the
 * window, tell of the time before it.
 *
 * Which memories are read is candidate gathering's choice (candidateGathering.ts: the candidates
 * recorded within TELLING_REACH before or after the window, or every memory recorded then when they
 * are few).
 */
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { mentionsTime } from './timeMentions.ts';
import { timePhrasesOf } from './timeExpressions.ts';
import type { TimeWindow } from './timeWindow.ts';

/**
 * How long before or after a window a memory may be recorded and still tell of it: a month, the
 * longest calendar unit a relative phrase commonly steps by short of a year ("last month", "three
 * weeks ago", "next month"). Set from that reading, not tuned.
 */
export const TELLING_REACH_MS = 31 * 86_400_000;

/** The window's bounds in ms (±Infinity where open). */
function boundsOf(window: TimeWindow): { start: number; end: number } {
  return {
    start: window.after === undefined ? -Infinity : Date.parse(window.after),
    end: window.before === undefined ? Infinity : Date.parse(window.before),
  };
}

/**
 * The time from a month before the window to a month after it (the window too: one listing reads
 * both sides), in which a memory may tell of it; only the side that has a bound for a window open on
 * the other.
 */
export function tellingReach(window: TimeWindow): TimeWindow | null {
  const { start, end } = boundsOf(window);
  if (!Number.isFinite(start) && !Number.isFinite(end)) return null;
  return {
    after: new Date(Number.isFinite(start) ? start - TELLING_REACH_MS : end + 1).toISOString(),
    before: new Date(Number.isFinite(end) ? end + TELLING_REACH_MS : start - 1).toISOString(),
  };
}

/** Whether a memory recorded at `happened` is within TELLING_REACH before or after the window (not in it). */
function withinReach(start: number, end: number, happened: number): boolean {
  return (
    (happened > end && happened <= end + TELLING_REACH_MS) || (happened < start && happened >= start - TELLING_REACH_MS)
  );
}

/** The candidates recorded within TELLING_REACH before the window starts or after it ends. */
export function recordedWithinReach(
  window: TimeWindow,
  candidates: Iterable<Pick<RankingFacts, 'memory_id' | 'happened_ms'>>,
): string[] {
  const { start, end } = boundsOf(window);
  const ids: string[] = [];
  for (const facts of candidates) if (withinReach(start, end, facts.happened_ms)) ids.push(facts.memory_id);
  return ids;
}

/**
 * The memories among `rows` recorded within reach of the window whose text names a time inside it,
 * read as of when each happened: backwards after the window, ahead before it.
 */
export function toldOfWindow(window: TimeWindow, rows: readonly MemoryRecord[]): Set<string> {
  const { start: after, end: before } = boundsOf(window);
  const told = new Set<string>();
  for (const memory of rows) {
    const at = new Date(memory.event_time ?? memory.created_at);
    if (!withinReach(after, before, at.getTime())) continue;
    // Most texts name no time: one pattern settles them before the phrases are resolved.
    if (!mentionsTime(memory.content)) continue;
    const ahead = at.getTime() < after;
    const phrases = timePhrasesOf(memory.content, at, { ahead });
    // A bound ("before the move") names no time of its own: only phrases with both ends count.
    const named = phrases.some(
      (phrase) =>
        (!ahead || phrase.ahead || !phrase.relative) &&
        Number.isFinite(phrase.start) &&
        Number.isFinite(phrase.end) &&
        (phrase.point ? phrase.start >= after && phrase.start <= before : phrase.start <= before && phrase.end > after),
    );
    if (named) told.add(memory.memory_id);
  }
  return told;
}
