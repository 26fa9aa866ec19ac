import { MemoryError } from '../../core/domain/errors.ts';
import { parseJsonPrecise } from './preciseJson.ts';

export type FireboltValue = string | number | bigint | boolean | null | FireboltValue[];

export interface FireboltColumn {
  name: string;
  /** As the server wrote it, e.g. `array(text null)`, `timestamptz null`. */
  type: string;
}

export interface FireboltResult {
  columns: FireboltColumn[];
  rows: Array<Record<string, FireboltValue>>;
}

export const EMPTY_RESULT: FireboltResult = { columns: [], rows: [] };

/** A parsed JSON_Compact document; `errors` is set when the engine reported failure in a 2xx body. */
export interface JsonCompactDocument {
  meta?: FireboltColumn[];
  data?: unknown[][];
  errors?: unknown[];
}

/** Parses a JSON_Compact body (precisely: big integers stay bigint). */
export function parseJsonCompactDocument(body: string): JsonCompactDocument {
  try {
    return parseJsonPrecise(body) as JsonCompactDocument;
  } catch (error) {
    throw new MemoryError('PROVIDER_ERROR', 'Firebolt returned a response that is not JSON.', {
      cause: error,
      details: { body: body.slice(0, 200) },
    });
  }
}

/** Rows keyed by column name, values typed by `meta`. */
export function resultFromDocument(document: JsonCompactDocument): FireboltResult {
  const columns = document.meta ?? [];
  const decoders = columns.map((column) => decoderFor(column.type));
  const rows = (document.data ?? []).map((row) => {
    const record: Record<string, FireboltValue> = {};
    columns.forEach((column, index) => {
      // Defined, not assigned: a column may be called "__proto__" and must read back as a column.
      Object.defineProperty(record, column.name, {
        value: decoders[index](row[index]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return record;
  });
  return { columns, rows };
}

type Decoder = (value: unknown) => FireboltValue;

/** Builds the value decoder for one `meta` type name; unknown types pass through unchanged. */
export function decoderFor(typeName: string): Decoder {
  const type = typeName
    .trim()
    .toLowerCase()
    .replace(/ null$/u, '');
  const array = /^array\((.*)\)$/u.exec(type);
  if (array) {
    const element = decoderFor(array[1]);
    return (value) => (value === null ? null : (value as unknown[]).map(element));
  }
  if (['int', 'integer', 'long', 'bigint'].includes(type)) return decodeInteger;
  if (
    ['float', 'real', 'double', 'double precision'].includes(type) ||
    type.startsWith('decimal') ||
    type.startsWith('numeric')
  )
    return decodeFloat;
  if (type === 'boolean')
    return (value) => (value === null ? null : value === true || value === 1 || value === 'true' || value === 't');
  if (type === 'timestamptz' || type === 'timestamp' || type === 'timestampntz') return decodeTimestamp;
  return (value) => value as FireboltValue;
}

function decodeInteger(value: unknown): FireboltValue {
  if (value === null || typeof value === 'bigint') return value as FireboltValue;
  if (typeof value === 'string') {
    const big = BigInt(value);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  return value as number;
}

const NON_FINITE: Record<string, number> = {
  inf: Infinity,
  '+inf': Infinity,
  '-inf': -Infinity,
  nan: NaN,
  '-nan': NaN,
};

function decodeFloat(value: unknown): FireboltValue {
  if (typeof value === 'string') return NON_FINITE[value.toLowerCase()] ?? Number(value);
  if (typeof value === 'bigint') return Number(value);
  return value as FireboltValue;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:([+-]\d{2})(?::?(\d{2}))?)?$/u;

/**
 * Engine timestamps ("2024-01-02 03:04:05.678+00") become ISO-8601 UTC with milliseconds,
 * the form records use. Microseconds beyond the millisecond are dropped.
 */
function decodeTimestamp(value: unknown): FireboltValue {
  if (value === null) return null;
  const match = TIMESTAMP.exec(String(value));
  if (!match) throw new MemoryError('PROVIDER_ERROR', `Firebolt returned an unreadable timestamp "${String(value)}".`);
  const [, date, time, fraction = '', offsetHours, offsetMinutes = '00'] = match;
  const millis = Date.parse(`${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}Z`);
  const offset =
    offsetHours === undefined
      ? 0
      : (Number(offsetHours) * 60 + Math.sign(Number(offsetHours) || 1) * Number(offsetMinutes)) * 60_000;
  return new Date(millis - offset).toISOString();
}
