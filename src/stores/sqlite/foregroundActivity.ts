/**
 * When the store last served a request, so background work (a persisted index's save) runs in the
 * gaps between requests instead of inside them. A save's slice run between two back-to-back calls
 * adds its length to the second call: at 100,000 memories the save is about a second of CPU, which
 * in 4 ms slices put 4–5 ms on the p99 of every quick tool (docs/benchmarks.md, issue 35).
 */
export interface ForegroundActivityOptions {
  /** Quiet time after the last request before background work runs: 20 ms by default. */
  idleGapMs?: number;
  /**
   * The longest background work waits for such a gap: 1 s by default. Under a stream of requests that
   * never pauses, a save still progresses one slice per wait, so it finishes, only slowly.
   */
  maxWaitMs?: number;
}

export class ForegroundActivity {
  private readonly idleGapMs: number;
  private readonly maxWaitMs: number;
  private inFlight = 0;
  private lastActiveAt = Number.NEGATIVE_INFINITY;

  constructor(options: ForegroundActivityOptions = {}) {
    this.idleGapMs = options.idleGapMs ?? 20;
    this.maxWaitMs = options.maxWaitMs ?? 1_000;
  }

  /** Marks a request under way until the returned promise settles; its result passes through. */
  track<T>(request: Promise<T>): Promise<T> {
    this.inFlight++;
    this.lastActiveAt = performance.now();
    return request.finally(() => {
      this.inFlight--;
      this.lastActiveAt = performance.now();
    });
  }

  /** Resolves once no request has been under way for the idle gap, or after the longest wait. */
  async untilIdle(): Promise<void> {
    const started = performance.now();
    // One turn of the event loop first, as any pause gives: requests already queued start now.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const now = performance.now();
      const quietFor = now - this.lastActiveAt;
      if (this.inFlight === 0 && quietFor >= this.idleGapMs) return;
      const waited = now - started;
      if (waited >= this.maxWaitMs) return;
      const untilGap = this.inFlight === 0 ? this.idleGapMs - quietFor : this.idleGapMs;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(untilGap, this.maxWaitMs - waited))));
    }
  }
}
