import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface StallReport {
  /** Longest gap between two timer turns of this thread beyond the timer's own period, ms. */
  longestStallMs: number;
  p99DelayMs: number;
  meanDelayMs: number;
}

/**
 * Watches the calling thread while `work` runs: Node's event-loop delay histogram for p99 (it
 * records whole sampling intervals, so the 5 ms resolution is taken off), and a 5 ms timer for
 * the single longest stall.
 */
export async function watchStalls<T>(work: () => Promise<T>): Promise<{ value: T; report: StallReport }> {
  const resolution = 5;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  let last = performance.now();
  let longest = 0;
  const period = 5;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - period);
    last = now;
  }, period);
  try {
    const value = await work();
    const now = performance.now();
    longest = Math.max(longest, now - last - period);
    return { value, report: { longestStallMs: Math.max(0, longest), p99DelayMs: Math.max(0, histogram.percentile(99) / 1e6 - resolution), meanDelayMs: Math.max(0, histogram.mean / 1e6 - resolution) } };
  } finally {
    clearInterval(timer);
    histogram.disable();
  }
}
