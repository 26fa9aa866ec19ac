const WINDOW_MS = 60_000;

/**
 * The limit `--rate-limit N` stands for: at most N requests per client in any 60 seconds, and at
 * most a tenth of N (at least 1) at once after an idle spell: the burst. The burst never exceeds N,
 * so a small N is not widened by it.
 */
export function rateLimitOf(perMinute: number): { perMinute: number; burst: number } {
  return { perMinute, burst: Math.min(perMinute, Math.max(1, Math.ceil(perMinute / 10))) };
}

interface ClientState {
  tokens: number;
  updated: number;
  /** Times of the requests let through in the last minute, oldest first (at most perMinute). */
  recent: number[];
}

/**
 * Token bucket per client (seed 000 §13.3) for the burst, plus a rolling one-minute window so no
 * 60 seconds ever see more than perMinute requests: a bucket alone lets burst + perMinute through
 * in the first minute. Clients are keyed by their bearer session or address; clients idle for ten
 * minutes are dropped.
 */
export class RateLimiter {
  private readonly clients = new Map<string, ClientState>();
  private readonly perMinute: number;
  private readonly burst: number;

  constructor(perMinute: number, burst: number) {
    this.perMinute = perMinute;
    this.burst = Math.min(burst, perMinute);
  }

  /** Returns 0 when the request may proceed, else the seconds to wait. */
  take(client: string, now = Date.now()): number {
    const refillPerMs = this.perMinute / WINDOW_MS;
    const state = this.clients.get(client) ?? { tokens: this.burst, updated: now, recent: [] };
    state.tokens = Math.min(this.burst, state.tokens + (now - state.updated) * refillPerMs);
    state.updated = now;
    this.clients.set(client, state);
    if (this.clients.size > 10_000) this.sweep(now);
    const firstInWindow = state.recent.findIndex((time) => now - time < WINDOW_MS);
    if (firstInWindow !== 0) state.recent.splice(0, firstInWindow === -1 ? state.recent.length : firstInWindow);
    if (state.recent.length >= this.perMinute) {
      return Math.max(1, Math.ceil((state.recent[0]! + WINDOW_MS - now) / 1000));
    }
    if (state.tokens >= 1) {
      state.tokens -= 1;
      state.recent.push(now);
      return 0;
    }
    return Math.ceil((1 - state.tokens) / refillPerMs / 1000);
  }

  private sweep(now: number): void {
    for (const [client, state] of this.clients) if (now - state.updated > 600_000) this.clients.delete(client);
  }
}
