import { MemoryError } from '../domain/errors.ts';

const DAY_MS = 86_400_000;

export function ageInDays(fromIso: string, now: Date): number {
  return ageInDaysSince(Date.parse(fromIso), now);
}

/** ageInDays of an instant already parsed (epoch ms). */
export function ageInDaysSince(fromMs: number, now: Date): number {
  return Math.max(0, (now.getTime() - fromMs) / DAY_MS);
}

const ISO_PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Whether an ISO-8601 date or timestamp names a real calendar moment: `2024-02-30` and
 * `2023-02-29` do not (Date.parse rolls them over into March), `2024-02-29` does. The one check
 * every entry point uses (tools, import, OpenSpec, through parseIsoTimestamp and the importer).
 */
export function isCalendarTimestamp(value: string): boolean {
  const parts = ISO_PARTS.exec(value);
  if (parts === null || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (parts[4] === undefined) return true;
  return Number(parts[4]) <= 23 && Number(parts[5]) <= 59 && (parts[6] === undefined || Number(parts[6]) <= 59);
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (UTC, proleptic Gregorian).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Validates an ISO-8601 timestamp from a caller and normalises it to UTC. */
export function parseIsoTimestamp(value: string, field: string): string {
  const ms = Date.parse(value);
  if (!isCalendarTimestamp(value)) {
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
