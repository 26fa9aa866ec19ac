/** Exponential backoff with full jitter, capped; the attempt count includes the first try. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 3_000 };

export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Runs `work` until it succeeds, `shouldRetry` says no, or attempts run out. A 429's
 * Retry-After (seconds) wins over the computed delay when the error carries one.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  work: (attempt: number) => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !shouldRetry(error)) throw error;
      const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
      await sleep(Math.min(policy.maxDelayMs, retryAfter ?? backoffDelay(policy, attempt)));
    }
  }
}
