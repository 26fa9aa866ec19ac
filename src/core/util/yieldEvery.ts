/**
 * Lets a long loop give the event loop a turn every `every` steps, so a job over a whole store
 * (maintenance, import, a similarity scan) never holds its thread for one long stretch: the
 * process serving several windows answers their calls in between.
 */
export class YieldEvery {
  private count = 0;
  private readonly every: number;

  constructor(every: number) {
    this.every = every;
  }

  /** Counts one step; every `every`-th step waits for the next event-loop turn. */
  async step(): Promise<void> {
    if (++this.count % this.every !== 0) return;
    await yieldToEventLoop();
  }
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
