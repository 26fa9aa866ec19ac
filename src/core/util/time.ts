import { MemoryError } from '../domain/errors.ts';

const DAY_MS = 86_400_000;

export function ageInDays(fromIso: string, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(fromIso)) / DAY_MS);
}

/** Validates an ISO-8601 timestamp from a caller and normalises it to UTC. */
export function parseIsoTimestamp(value: string, field: string): string {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${field} must be an ISO-8601 timestamp such as 2026-01-03T14:30:00Z; got "${value}".`,
      {
        details: { field },
      },
    );
  }
  return new Date(ms).toISOString();
}
