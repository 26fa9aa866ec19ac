import type { DatabaseSync } from 'node:sqlite';
import { canonicalTimestamp, castValue, isStorageValid, parseTypeName } from './fireboltTypes.ts';
import { FireboltServerError } from './serverErrors.ts';

/**
 * Firebolt functions the engine has and SQLite lacks, registered as SQLite functions.
 * Arrays travel between them as JSON text, which is how the server stores ARRAY columns.
 * `computedTypes` remembers the Firebolt type of array/timestamp texts these functions
 * produce, so a computed result column can be typed as the engine would type it.
 */
export function registerFireboltFunctions(db: DatabaseSync, computedTypes: Map<string, string>): void {
  const deterministic = { deterministic: true, varargs: false, useBigIntArguments: true } as const;

  db.function('fb_array', { ...deterministic, varargs: true }, (...elements: unknown[]) => {
    const text = JSON.stringify(elements.map((element) => (typeof element === 'bigint' ? Number(element) : element)));
    computedTypes.set(text, arrayLiteralType(elements));
    return text;
  });
  db.function('fb_cast', deterministic, (value: unknown, type: unknown) => {
    const cast = castValue(value, parseTypeName(String(type)));
    if (typeof cast === 'string' && String(type) !== 'text') computedTypes.set(cast, String(type));
    return cast as never;
  });
  db.function('fb_check', deterministic, (value: unknown, type: unknown) =>
    isStorageValid(value, parseTypeName(String(type))) ? 1 : 0,
  );
  db.function('fb_now', { ...deterministic, deterministic: false }, () => {
    const iso = new Date().toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00`;
  });

  // Raises a Firebolt-shaped error from inside a translated statement (the MERGE duplicate-key check).
  db.function('fb_merge_duplicate', deterministic, (target: unknown) => {
    throw new FireboltServerError(
      400,
      'MergeCardinality',
      `MERGE matched a row of "${String(target)}" more than once: the source has duplicate keys`,
    );
  });

  // Firebolt's VERSION(); this server names itself so a connection check shows what it talked to.
  db.function('version', deterministic, () => `firebolt-test-server (node:sqlite ${process.versions.sqlite})`);
  db.function('vector_cosine_similarity', deterministic, (a: unknown, b: unknown) =>
    cosineSimilarity(vector(a), vector(b)),
  );
  db.function(
    'vector_cosine_distance',
    deterministic,
    (a: unknown, b: unknown) => 1 - cosineSimilarity(vector(a), vector(b)),
  );
  db.function('vector_inner_product', deterministic, (a: unknown, b: unknown) =>
    pairwise(vector(a), vector(b), (x, y) => x * y),
  );
  db.function('vector_squared_euclidean_distance', deterministic, (a: unknown, b: unknown) =>
    pairwise(vector(a), vector(b), (x, y) => (x - y) ** 2),
  );
  db.function('vector_euclidean_distance', deterministic, (a: unknown, b: unknown) =>
    Math.sqrt(pairwise(vector(a), vector(b), (x, y) => (x - y) ** 2)),
  );

  db.function('array_length', deterministic, (array: unknown) => (array === null ? null : arrayOf(array).length));
  db.function('arrays_overlap', deterministic, (a: unknown, b: unknown) => {
    if (a === null || b === null) return null;
    const right = new Set(arrayOf(b).map(elementKey));
    return arrayOf(a).some((element) => right.has(elementKey(element))) ? 1 : 0;
  });
  const contains = (array: unknown, value: unknown): number | null =>
    array === null ? null : arrayOf(array).some((element) => elementKey(element) === elementKey(value)) ? 1 : 0;
  db.function('array_contains', deterministic, contains);
  db.function('contains', deterministic, contains);
  db.function('json_pointer_extract_text', deterministic, (json: unknown, pointer: unknown) =>
    extractText(json, pointer),
  );
  db.function('date_diff', deterministic, (unit: unknown, start: unknown, end: unknown) => dateDiff(unit, start, end));
}

/** Microseconds per DATE_DIFF unit this server implements (calendar units are not needed by the store). */
const DATE_DIFF_UNITS: Record<string, number> = {
  microsecond: 1,
  millisecond: 1_000,
  second: 1_000_000,
  minute: 60_000_000,
  hour: 3_600_000_000,
  day: 86_400_000_000,
};

/**
 * DATE_DIFF(unit, start, end): how many unit boundaries lie between two timestamps (end minus
 * start, so negative when end is earlier). Values are the server's stored timestamp text.
 */
function dateDiff(unit: unknown, start: unknown, end: unknown): bigint | null {
  if (unit === null || start === null || end === null) return null;
  const size = DATE_DIFF_UNITS[String(unit).toLowerCase()];
  if (size === undefined)
    throw new Error(
      `DATE_DIFF: unit "${String(unit)}" is not supported by the test server (${Object.keys(DATE_DIFF_UNITS).join(', ')})`,
    );
  const micros = (value: unknown): bigint => {
    const canonical = canonicalTimestamp(String(value), 'timestamptz');
    return (
      BigInt(Date.parse(`${canonical.slice(0, 10)}T${canonical.slice(11, 19)}Z`)) * 1000n +
      BigInt(canonical.slice(20, 26))
    );
  };
  const floorDiv = (value: bigint, divisor: bigint): bigint =>
    value >= 0n ? value / divisor : -((-value + divisor - 1n) / divisor);
  const divisor = BigInt(size);
  return floorDiv(micros(end), divisor) - floorDiv(micros(start), divisor);
}

/** Firebolt types an array literal by its elements: numbers make array(double), text array(text). */
function arrayLiteralType(elements: readonly unknown[]): string {
  const present = elements.filter((element) => element !== null);
  const nullable = present.length < elements.length ? ' null' : '';
  if (present.length > 0 && present.every((element) => typeof element === 'string')) return `array(text${nullable})`;
  if (present.every((element) => typeof element === 'number' || typeof element === 'bigint'))
    return `array(double${nullable})`;
  return 'text';
}

function vector(value: unknown): number[] {
  const array = arrayOf(value);
  if (array.some((element) => typeof element !== 'number'))
    throw new Error('vector functions need arrays of numbers without NULLs');
  return array as number[];
}

function arrayOf(value: unknown): unknown[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(parsed)) throw new Error(`expected an array, got ${JSON.stringify(String(value))}`);
  return parsed;
}

/** Array elements are JSON values, SQL arguments SQLite values: compare them on one key. */
function elementKey(value: unknown): string {
  if (typeof value === 'bigint') return `n:${Number(value)}`;
  if (typeof value === 'number') return `n:${value}`;
  if (typeof value === 'boolean') return `n:${value ? 1 : 0}`;
  if (value === null) return 'null';
  return `s:${String(value)}`;
}

function pairwise(a: number[], b: number[], term: (x: number, y: number) => number): number {
  if (a.length !== b.length) throw new Error(`vectors have different lengths: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += term(a[i], b[i]);
  return sum;
}

function cosineSimilarity(a: number[], b: number[]): number {
  const dot = pairwise(a, b, (x, y) => x * y);
  const norms = Math.sqrt(pairwise(a, a, (x) => x * x)) * Math.sqrt(pairwise(b, b, (y) => y * y));
  // Undefined for a zero vector; NaN reaches SQL as NULL.
  return norms === 0 ? NaN : dot / norms;
}

function extractText(json: unknown, pointer: unknown): string | null {
  if (json === null || pointer === null) return null;
  let node: unknown;
  try {
    node = JSON.parse(String(json));
  } catch {
    throw new Error('JSON_POINTER_EXTRACT_TEXT: malformed JSON');
  }
  const path = String(pointer);
  if (path !== '' && !path.startsWith('/'))
    throw new Error('JSON_POINTER_EXTRACT_TEXT: JSON pointer must start with "/"');
  for (const raw of path === '' ? [] : path.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' ? node : null;
}
