import { MemoryError } from '../../core/domain/errors.ts';

/**
 * Checked reads of one stored value, for the row codecs of every backend. A row is what this
 * program wrote, so a value of the wrong type means a damaged file or a newer writer: it is
 * reported as a typed error naming the field, never passed on under a type it does not have.
 * These are plain checks rather than a schema parse because they run for every row a recall or
 * a listing reads (docs/architecture.md, "Records").
 */

function damaged(field: string, value: unknown, expected: string): MemoryError {
  const found = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
  return new MemoryError(
    'PROVIDER_ERROR',
    `The store holds ${found} in ${field} where ${expected} belongs: the store is damaged or was written by an incompatible version.`,
    { details: { field } },
  );
}

export function storedText(value: unknown, field: string): string {
  if (typeof value !== 'string') throw damaged(field, value, 'text');
  return value;
}

export function storedNullableText(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw damaged(field, value, 'text or null');
  return value;
}

/** Numbers come back as number, or as bigint from a driver that reads 64-bit integers exactly. */
export function storedNumber(value: unknown, field: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw damaged(field, value, 'a number');
}

export function storedBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw damaged(field, value, 'true or false');
  return value;
}

/**
 * A boolean kept as 0 / 1 (SQLite has no boolean type). Any other number is damage, not false:
 * reading 2 or 0.5 as "not pinned" would quietly unpin a memory the next write saves.
 */
export function storedFlag(value: unknown, field: string): boolean {
  const flag = typeof value === 'bigint' ? Number(value) : value;
  if (flag === 1) return true;
  if (flag === 0) return false;
  throw damaged(field, value, '0 or 1');
}

/** The one row an aggregate query always returns; none means the store answered something it cannot have. */
export function storedRow<R>(row: R | undefined, query: string): R {
  if (row === undefined)
    throw new MemoryError('PROVIDER_ERROR', `The store returned no row for ${query}: the store is damaged.`, {
      details: { field: query },
    });
  return row;
}

/** One of `options`; the options are a schema's enum values, so the stored value is checked against the one declaration. */
export function storedChoice<T extends string>(options: readonly T[]): (value: unknown, field: string) => T {
  const allowed = new Set<string>(options);
  const isOption = (value: unknown): value is T => typeof value === 'string' && allowed.has(value);
  return (value, field) => {
    if (!isOption(value)) throw damaged(field, value, `one of ${options.join(', ')}`);
    return value;
  };
}

export function storedTextList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw damaged(field, value, 'a list of text');
  for (const entry of value) if (typeof entry !== 'string') throw damaged(field, entry, 'a list of text');
  return value;
}

/** A list of numbers (a vector column), each entry checked. */
export function storedNumberList(value: unknown, field: string): number[] {
  if (!Array.isArray(value)) throw damaged(field, value, 'a list of numbers');
  return value.map((entry: unknown) => {
    if (typeof entry !== 'number') throw damaged(field, entry, 'a list of numbers');
    return entry;
  });
}

/** JSON text holding a list of text (SQLite keeps lists as JSON). */
export function storedJsonTextList(value: unknown, field: string): string[] {
  return storedTextList(parseStoredJson(value, field), field);
}

/** JSON text holding an object. */
export function storedJsonObject(value: unknown, field: string): Record<string, unknown> {
  const parsed = parseStoredJson(value, field);
  if (!isObject(parsed)) throw damaged(field, parsed, 'a JSON object');
  return parsed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseStoredJson(value: unknown, field: string): unknown {
  const text = storedText(value, field);
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch (error) {
    throw new MemoryError(
      'PROVIDER_ERROR',
      `The store holds text in ${field} that is not JSON: the store is damaged.`,
      {
        details: { field },
        cause: error,
      },
    );
  }
}
