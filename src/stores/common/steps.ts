/**
 * Long work written once, run two ways: a generator that yields between small pieces of its work
 * (a few thousand array cells), so one caller can run it in one go (`runNow`) and another in time
 * slices that let the event loop serve requests between them (`runInSlices`). At 100,000 memories
 * encoding a persisted index is over a second of CPU; run in one stretch it stalled every request
 * of the process (docs/benchmarks.md, issue 35).
 */
export type Steps<T> = Generator<void, T, void>;

/** How many cells a loop handles between two yields: well under a millisecond of work. */
export const CELLS_PER_STEP = 4_096;

export function runNow<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface SliceOptions {
  /** Work time before the next pause. */
  sliceMs: number;
  /** Lets others run: a turn of the event loop (the caller's runtime decides how). */
  pause: () => Promise<void>;
  /** Called after every pause; throws to abandon the work (its generator is closed). */
  afterPause?: () => void;
}

export async function runInSlices<T>(steps: Steps<T>, options: SliceOptions): Promise<T> {
  let sliceStart = performance.now();
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - sliceStart < options.sliceMs) continue;
      await options.pause();
      options.afterPause?.();
      sliceStart = performance.now();
    }
  } finally {
    steps.return(undefined as never);
  }
}

/**
 * The permutation of `0 … count-1` that sorts it by `compare` (which must never call two
 * positions equal: the order of equals is not kept), as a bottom-up merge sort yielding between
 * runs: a native sort of each run of 1,024, then merges. The same result as sorting in one call.
 */
export function* sortedPermutationSteps(count: number, compare: (a: number, b: number) => number): Steps<Int32Array> {
  let order = new Int32Array(count);
  for (let at = 0; at < count; at++) order[at] = at;
  const RUN = 1_024;
  for (let start = 0; start < count; start += RUN) {
    order.subarray(start, Math.min(count, start + RUN)).sort(compare);
    yield;
  }
  let spare = new Int32Array(count);
  for (let width = RUN; width < count; width *= 2) {
    let sinceYield = 0;
    for (let start = 0; start < count; start += 2 * width) {
      const middle = Math.min(count, start + width);
      const end = Math.min(count, start + 2 * width);
      let left = start;
      let right = middle;
      for (let out = start; out < end; out++) {
        if (right >= end || (left < middle && compare(order[left], order[right]) <= 0)) spare[out] = order[left++];
        else spare[out] = order[right++];
        if (++sinceYield === CELLS_PER_STEP) {
          sinceYield = 0;
          yield;
        }
      }
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/** The permutation that sorts `keys` in JavaScript's string order (see sortedOrder). */
export function sortedOrderSteps(keys: readonly string[]): Steps<Int32Array> {
  return sortedPermutationSteps(keys.length, (a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
}
