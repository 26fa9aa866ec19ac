/**
 * A memory is recorded when something is told, which is often after it happened: "I went to a
 * castle in the UK last Friday", stored on 16 November, tells of 10 November; "I got a puppy two
 * weeks ago", stored on 11 August, of late July. Its event_time (or creation time) is the telling, so
 * a question about the week of 10 November would not see it in its window. Temporal annotation
 * (TimeML) anchors such relative expressions to the time of the text; here, each candidate recorded
 * shortly after the window the question names has its time phrases read as of its own time
 * (timePhrasesOf), and one that names a time inside the window covers the window like a memory of it.
 *
 * Which memories are read is candidate gathering's choice (candidateGathering.ts: the candidates
 * recorded within TELLING_REACH after the window, or every memory recorded then when they are few).
 */
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { mentionsTime } from './timeMentions.ts';
import { timePhrasesOf } from './timeExpressions.ts';
import type { TimeWindow } from './timeWindow.ts';

/**
 * How long after a window a memory may be recorded and still tell of it: a month, the longest
 * calendar unit a relative phrase commonly steps back by short of a year ("last month", "three
 * weeks ago"). Set from that reading, not tuned.
 */
export const TELLING_REACH_MS = 31 * 86_400_000;

/** The time just after the window in which a memory may tell of it; null for a window with no end. */
export function tellingReach(window: TimeWindow): TimeWindow | null {
  if (window.before === undefined) return null;
  const end = Date.parse(window.before);
  return { after: new Date(end + 1).toISOString(), before: new Date(end + TELLING_REACH_MS).toISOString() };
}

/** The candidates recorded within TELLING_REACH after the window ends; empty for a window with no end. */
export function recordedJustAfter(
  window: TimeWindow,
  candidates: Iterable<Pick<RankingFacts, 'memory_id' | 'happened_ms'>>,
): string[] {
  if (window.before === undefined) return [];
  const end = Date.parse(window.before);
  const ids: string[] = [];
  for (const facts of candidates)
    if (facts.happened_ms > end && facts.happened_ms <= end + TELLING_REACH_MS) ids.push(facts.memory_id);
  return ids;
}

/** The memories among `rows` whose text names a time inside the window, read as of when each happened. */
export function toldOfWindow(window: TimeWindow, rows: readonly MemoryRecord[]): Set<string> {
  const after = window.after === undefined ? -Infinity : Date.parse(window.after);
  const before = window.before === undefined ? Infinity : Date.parse(window.before);
  const told = new Set<string>();
  for (const memory of rows) {
    // Most texts name no time: one pattern settles them before the phrases are resolved.
    if (!mentionsTime(memory.content)) continue;
    const at = new Date(memory.event_time ?? memory.created_at);
    // A bound ("before the move") names no time of its own: only phrases with both ends count.
    const named = timePhrasesOf(memory.content, at).some(
      (phrase) =>
        Number.isFinite(phrase.start) &&
        Number.isFinite(phrase.end) &&
        (phrase.point ? phrase.start >= after && phrase.start <= before : phrase.start <= before && phrase.end > after),
    );
    if (named) told.add(memory.memory_id);
  }
  return told;
}
