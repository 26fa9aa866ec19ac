/**
 * A date named without a year ("what did we ship in May?", "on August 15th") names that month or day
 * of some year. By default it is the latest one not after now (timeExpressions.ts); when the user has
 * no memory in it, the question is about an earlier one that they have memories of: the window steps
 * back a year at a time to the latest occurrence that holds any of the user's memories. A user who
 * asks in January 2026 about "May" with nothing stored since 2024 means May 2024, not an empty May
 * 2025. Windows with a year, relative phrases ("last week") and bounds ("since May") are left as
 * they are; when no earlier occurrence holds a memory, the default window stays.
 */
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import { parseTimeExpressions, type TimeHint } from './timeExpressions.ts';

/** Earlier years a yearless date may step back: beyond this a memory is too old to be what "May" means. */
export const YEARLESS_YEARS_BACK = 10;

export async function placeYearlessDate(
  deps: Pick<CoreDeps, 'store'>,
  filter: MemoryFilter,
  query: string,
  hint: TimeHint,
): Promise<TimeHint> {
  if (hint.yearless !== true || hint.after === undefined || hint.before === undefined) return hint;
  const held = (window: TimeHint): Promise<number> =>
    deps.store
      .listMemories({
        filter: { ...filter, after: window.after, before: window.before },
        sort: 'created',
        offset: 0,
        limit: 0,
      })
      .then((listed) => listed.total);
  // Nothing stored before the window's start: no earlier occurrence can hold a memory.
  const earlierMemories = await deps.store.listMemories({
    filter: { ...filter, before: hint.after },
    sort: 'created',
    offset: 0,
    limit: 0,
  });
  if (earlierMemories.total === 0 || (await held(hint)) > 0) return hint;
  let current = hint;
  for (let step = 0; step < YEARLESS_YEARS_BACK; step++) {
    // The same phrases, read as of just before the current occurrence: the one a year earlier.
    const earlier = parseTimeExpressions(query, new Date(Date.parse(current.after!) - 1));
    if (earlier.yearless !== true || earlier.after === undefined || earlier.before === undefined) return hint;
    if ((await held(earlier)) > 0) return earlier;
    current = earlier;
  }
  return hint;
}
