import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface StallReport {
  /** Longest gap between two timer turns of this thread beyond the timer's own period, ms. */
  longestStallMs: number;
  /** CPU time this thread spent inside that longest gap, ms: the rest of it the thread was waiting for a core. */
  longestStallCpuMs: number;
  /**
   * Most CPU this thread used between two timer turns, ms: an upper bound on its longest
   * synchronous stretch. A stall much longer than this was the machine, not the thread's work.
   */
  longestBusyMs: number;
  p99DelayMs: number;
  meanDelayMs: number;
}

/** CPU time of this thread (not the process: the memory process and helper threads do not count), ms. */
function threadCpuMs(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Watches the calling thread while `work` runs: Node's event-loop delay histogram for p99 (it
 * records whole sampling intervals, so the 5 ms resolution is taken off), and a 5 ms timer for
 * the single longest stall. Each timer turn also reads the thread's CPU clock, so a stall can be
 * told apart: CPU spent in it is this thread's synchronous work; the rest is the thread waiting
 * to be scheduled, which on a machine with more runnable processes than cores is the machine.
 */
export async function watchStalls<T>(work: () => Promise<T>): Promise<{ value: T; report: StallReport }> {
  const resolution = 5;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  let last = performance.now();
  let lastCpu = threadCpuMs();
  let longest = 0;
  let longestCpu = 0;
  let busiest = 0;
  const period = 5;
  const sample = (): void => {
    const now = performance.now();
    const cpu = threadCpuMs();
    const stall = now - last - period;
    if (stall > longest) {
      longest = stall;
      longestCpu = cpu - lastCpu;
    }
    busiest = Math.max(busiest, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(sample, period);
  try {
    const value = await work();
    sample();
    return {
      value,
      report: {
        longestStallMs: Math.max(0, longest),
        longestStallCpuMs: Math.max(0, Math.min(longestCpu, longest + period)),
        longestBusyMs: busiest,
        p99DelayMs: Math.max(0, histogram.percentile(99) / 1e6 - resolution),
        meanDelayMs: Math.max(0, histogram.mean / 1e6 - resolution),
      },
    };
  } finally {
    clearInterval(timer);
    histogram.disable();
  }
}
