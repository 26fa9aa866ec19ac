import { MemoryError } from './domain/errors.ts';
import { LIMITS } from './limits.ts';
import { utf8ByteLength } from './util/utf8.ts';

// LIMITS lives in its own Node-free module so the panel's schemas (src/shared) can read it and the
// webview's type check, which has no Node types, can follow that import.
export { LIMITS };

const ID_PATTERN = /^[\w.:@\-/+=]+$/;

export function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new MemoryError('MISSING_IDENTIFIER', `${field} is required and must be a non-empty string.`, {
      details: { field },
    });
  }
  if (value.length > LIMITS.idChars || !ID_PATTERN.test(value)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${field} must be at most ${LIMITS.idChars} characters of letters, digits and . : @ - / + = _ ; got ${JSON.stringify(value.slice(0, 40))}.`,
      { details: { field } },
    );
  }
  if (field === 'user_id' && RESERVED_PARTITION.test(value)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `user_id may not start with "${value.split(':')[0]}:"; that prefix names a shared memory layer.`,
      { details: { field } },
    );
  }
  return value;
}

/** Shared layers' partitions (layerScope.ts); a user id spelled like one would read that layer as its own. */
const RESERVED_PARTITION = /^(?:project|team|org|company):/;

export function requireContent(value: unknown, field = 'content'): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new MemoryError('INVALID_INPUT', `${field} must be a non-empty string.`, { details: { field } });
  }
  const bytes = utf8ByteLength(value);
  if (bytes > LIMITS.contentBytes) {
    throw new MemoryError(
      'CONTENT_TOO_LONG',
      `${field} is ${bytes} bytes; the limit is ${LIMITS.contentBytes} bytes (100 KB). Split it into several memories or store a summary.`,
      { details: { field, bytes, limit: LIMITS.contentBytes } },
    );
  }
  return value;
}

export function requireQuery(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new MemoryError('INVALID_INPUT', 'query must be a non-empty string.', { details: { field: 'query' } });
  }
  if (value.length > LIMITS.queryChars) {
    throw new MemoryError(
      'QUERY_TOO_LONG',
      `query is ${value.length} characters; the limit is ${LIMITS.queryChars}. Shorten it to the key terms.`,
      {
        details: { field: 'query', limit: LIMITS.queryChars },
      },
    );
  }
  return value;
}

export function requireUnitInterval(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new MemoryError('INVALID_INPUT', `${field} must be a number between 0 and 1; got ${String(value)}.`, {
      details: { field },
    });
  }
  return value;
}

export function requirePositiveInt(value: number | undefined, field: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new MemoryError('INVALID_INPUT', `${field} must be a whole number from 1 to ${max}; got ${String(value)}.`, {
      details: { field },
    });
  }
  return value;
}

export function requireStringList(
  value: readonly string[] | undefined,
  field: string,
  maxItems: number,
  maxChars: number,
): string[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    value.length > maxItems ||
    value.some((entry) => typeof entry !== 'string' || entry.length > maxChars)
  ) {
    throw new MemoryError(
      'INVALID_INPUT',
      `${field} must be a list of at most ${maxItems} strings of at most ${maxChars} characters each.`,
      {
        details: { field },
      },
    );
  }
  return [...new Set(value.map((entry) => entry.trim()).filter((entry) => entry.length > 0))];
}

export function requireMetadata(value: Record<string, unknown> | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MemoryError('INVALID_INPUT', 'metadata must be a JSON object.', { details: { field: 'metadata' } });
  }
  requireJsonDepth(value, 'metadata');
  let serialised: string;
  try {
    serialised = JSON.stringify(value);
  } catch (cause) {
    throw new MemoryError('INVALID_INPUT', 'metadata must be plain JSON (no cycles, no BigInt).', {
      details: { field: 'metadata' },
      cause,
    });
  }
  if (utf8ByteLength(serialised) > LIMITS.metadataBytes) {
    throw new MemoryError(
      'CONTENT_TOO_LONG',
      `metadata is larger than ${LIMITS.metadataBytes} bytes once serialised.`,
      {
        details: { field: 'metadata' },
      },
    );
  }
  return JSON.parse(serialised) as Record<string, unknown>;
}

/**
 * Refuses JSON nested deeper than LIMITS.jsonDepth. Walked without recursion, so a hostile
 * 100,000-level value is refused as bad input instead of overflowing the stack of whatever
 * recursive code (serialisation, secret scanning) would read it next.
 */
export function requireJsonDepth(value: unknown, field: string, limit: number = LIMITS.jsonDepth): void {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= limit) {
      throw new MemoryError('INVALID_INPUT', `${field} is nested more than ${limit} levels deep; flatten it.`, {
        details: { field, max_depth: limit },
      });
    }
    // A cycle is not deep, it is not JSON: serialisation refuses it right after.
    if (seen.has(next.value)) continue;
    seen.add(next.value);
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
}
