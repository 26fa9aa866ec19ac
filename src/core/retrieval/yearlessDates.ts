/**
 * A date named without a year ("what did we ship in May?", "on August 15th") names that month or day
 * of some year. By default it is the latest one not after now (timeExpressions.ts); when none of the
 * memories searched happened in it and they stop before it, the question is about the latest one
 * they reach: the date is read again as of the newest thing that happened by the end of the default
 * occurrence. A user who asks in January 2026 about "May" with nothing stored after 2024 means May
 * 2024, not an empty May 2025. Windows with a year, relative phrases ("last week") and bounds
 * ("since May") are left as they are. Candidate gathering calls this only when the default window
 * is empty (it counts the window anyway), so a window that holds memories costs nothing more.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import { parseTimeExpressions } from './timeExpressions.ts';
import type { TimeWindow } from './timeWindow.ts';

/**
 * The most recently stored memories read to find when the newest thing happened: events are mostly
 * stored as they happen, and one stored late (a backfilled event) among the last ones still counts.
 */
export const LATEST_STORED_READ = 10;

/** The window for `query`'s yearless date, moved back to where the memories reach; `window` itself when it stands. */
export async function placeYearlessDate(
  deps: Pick<CoreDeps, 'store'>,
  filter: MemoryFilter,
  query: string,
  window: TimeWindow,
): Promise<TimeWindow> {
  if (window.after === undefined || window.before === undefined) return window;
  // One listing: the memories stored last among those that happened by the end of the default occurrence.
  const latest = await deps.store.listMemories({
    filter: { ...filter, before: window.before },
    sort: 'created',
    offset: 0,
    limit: LATEST_STORED_READ,
  });
  const newest = Math.max(...latest.items.map((memory) => Date.parse(memory.event_time ?? memory.created_at)));
  // Nothing happened by then (-Infinity), or something happened inside the default occurrence: it stands.
  if (!Number.isFinite(newest) || newest >= Date.parse(window.after)) return window;
  const earlier = parseTimeExpressions(query, new Date(newest));
  return earlier.yearless === true && earlier.after !== undefined && earlier.before !== undefined
    ? { after: earlier.after, before: earlier.before }
    : window;
}
