/** Percentiles over latency samples in milliseconds (nearest-rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function latencySummary(samples: readonly number[]): {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
} {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: percentile(samples, 100),
  };
}

export function ms(value: number): string {
  return Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1);
}
