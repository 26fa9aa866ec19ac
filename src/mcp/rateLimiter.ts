/**
 * Token bucket per client (seed 000 §13.3: 100 requests per minute, burst 20).
 * Clients are keyed by their bearer session or address; buckets idle for ten minutes are dropped.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();
  private readonly perMinute: number;
  private readonly burst: number;

  constructor(perMinute: number, burst: number) {
    this.perMinute = perMinute;
    this.burst = burst;
  }

  /** Returns 0 when the request may proceed, else the seconds to wait. */
  take(client: string, now = Date.now()): number {
    const refillPerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(client) ?? { tokens: this.burst, updated: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updated) * refillPerMs);
    bucket.updated = now;
    this.buckets.set(client, bucket);
    if (this.buckets.size > 10_000) this.sweep(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / refillPerMs / 1000);
  }

  private sweep(now: number): void {
    for (const [client, bucket] of this.buckets) if (now - bucket.updated > 600_000) this.buckets.delete(client);
  }
}
