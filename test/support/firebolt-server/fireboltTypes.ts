import { FireboltServerError } from './serverErrors.ts';
import { isWord, render, significant } from './sqlTokens.ts';
import type { Node } from './sqlTokens.ts';

export type ScalarBase = 'int' | 'long' | 'real' | 'double' | 'text' | 'boolean' | 'timestamptz' | 'timestamp' | 'date';

/** A Firebolt column type, as the catalog remembers it. */
export type FireboltType = { base: ScalarBase } | { base: 'array'; element: FireboltType; elementNullable: boolean };

const SCALAR_WORDS: Record<string, ScalarBase> = {
  int: 'int',
  integer: 'int',
  int4: 'int',
  bigint: 'long',
  long: 'long',
  int8: 'long',
  real: 'real',
  float4: 'real',
  double: 'double',
  float8: 'double',
  float: 'double',
  text: 'text',
  string: 'text',
  varchar: 'text',
  boolean: 'boolean',
  bool: 'boolean',
  timestamptz: 'timestamptz',
  timestamp: 'timestamp',
  timestampntz: 'timestamp',
  date: 'date',
  pgdate: 'date',
};

/** Parses a type starting at `nodes[start]` (significant nodes only); returns the type and the next index. */
export function parseType(nodes: readonly Node[], start: number): { type: FireboltType; next: number } {
  const head = nodes[start];
  let type: FireboltType;
  let next = start + 1;
  if (isWord(head, 'array')) {
    const group = nodes[next];
    if (group?.kind !== 'group' || group.open !== '(') throw unsupportedType(nodes.slice(start, start + 2));
    const inner = significant(group.children);
    const parsed = parseType(inner, 0);
    const nullability = parseNullability(inner, parsed.next);
    if (nullability.next !== inner.length) throw unsupportedType([group]);
    type = { base: 'array', element: parsed.type, elementNullable: nullability.nullable ?? true };
    next += 1;
  } else if (head?.kind === 'word' && Object.hasOwn(SCALAR_WORDS, head.value!)) {
    type = { base: SCALAR_WORDS[head.value!] };
    if (head.value === 'double' && isWord(nodes[next], 'precision')) next += 1;
    if (
      head.value === 'timestamp' &&
      isWord(nodes[next], 'with') &&
      isWord(nodes[next + 1], 'time') &&
      isWord(nodes[next + 2], 'zone')
    ) {
      type = { base: 'timestamptz' };
      next += 3;
    }
  } else {
    throw unsupportedType(nodes.slice(start, start + 1));
  }
  while (nodes[next]?.kind === 'group' && (nodes[next] as { open: string }).open === '[') {
    type = { base: 'array', element: type, elementNullable: true };
    next += 1;
  }
  return { type, next };
}

/** Reads an optional `NULL` / `NOT NULL`; `nullable` is undefined when neither is written. */
export function parseNullability(
  nodes: readonly Node[],
  start: number,
): { nullable: boolean | undefined; next: number } {
  if (isWord(nodes[start], 'null')) return { nullable: true, next: start + 1 };
  if (isWord(nodes[start], 'not') && isWord(nodes[start + 1], 'null')) return { nullable: false, next: start + 2 };
  return { nullable: undefined, next: start };
}

function unsupportedType(nodes: readonly Node[]): FireboltServerError {
  return new FireboltServerError(
    400,
    'TypeError',
    `type "${render(nodes).trim()}" is not supported by the Firebolt test server`,
  );
}

/** The lower-case name Firebolt puts in `meta[].type` (without the ` null` suffix). */
export function typeName(type: FireboltType): string {
  if (type.base === 'array') return `array(${typeName(type.element)}${type.elementNullable ? ' null' : ''})`;
  return type.base;
}

export function parseTypeName(name: string): FireboltType {
  const array = /^array\((.*?)( null)?\)$/u.exec(name);
  if (array) return { base: 'array', element: parseTypeName(array[1]), elementNullable: array[2] !== undefined };
  return { base: name as ScalarBase };
}

/** SQLite storage class for a Firebolt type: arrays are JSON text, timestamps canonical text. */
export function sqliteType(type: FireboltType): string {
  switch (type.base) {
    case 'int':
    case 'long':
    case 'boolean':
      return 'INTEGER';
    case 'real':
    case 'double':
      return 'REAL';
    default:
      return 'TEXT';
  }
}

const TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/u;

/** Canonical stored text: fixed width, so text order is time order. */
export function canonicalTimestamp(input: string, base: 'timestamptz' | 'timestamp' | 'date'): string {
  const match = TIMESTAMP_PATTERN.exec(input.trim());
  if (!match) throw new FireboltServerError(400, 'CastError', `cannot cast "${input}" to ${base}`);
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = match;
  let millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (base === 'timestamptz' && zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    millis -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * 60_000;
  }
  const date = new Date(millis);
  if (Number.isNaN(millis)) throw new FireboltServerError(400, 'CastError', `cannot cast "${input}" to ${base}`);
  const iso = date.toISOString();
  if (base === 'date') return iso.slice(0, 10);
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros}`;
  return base === 'timestamptz' ? `${text}+00` : text;
}

/** Output form: trailing zeros of the fraction trimmed, as Firebolt prints timestamps. */
function trimFraction(stored: string): string {
  const match = /^(.*?\d{2}:\d{2}:\d{2})(?:\.(\d+))?(\+00)?$/u.exec(stored);
  if (!match) return stored;
  const fraction = (match[2] ?? '').replace(/0+$/u, '');
  return `${match[1]}${fraction ? `.${fraction}` : ''}${match[3] ?? ''}`;
}

/** Converts any SQLite value into the storage form of `type` (used by `::` and CAST). */
export function castValue(value: unknown, type: FireboltType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.base) {
    case 'text':
      return typeof value === 'string' ? value : String(value);
    case 'int':
    case 'long': {
      const number = typeof value === 'string' ? Number(value.trim()) : Number(value);
      if (typeof value === 'bigint') return value;
      if (!Number.isFinite(number)) throw castError(value, type);
      return BigInt(Math.round(number));
    }
    case 'real':
      return Math.fround(toDouble(value, type));
    case 'double':
      return toDouble(value, type);
    case 'boolean':
      if (value === 'true' || value === 't' || value === 1n || value === 1) return 1;
      if (value === 'false' || value === 'f' || value === 0n || value === 0) return 0;
      throw castError(value, type);
    case 'timestamptz':
    case 'timestamp':
    case 'date':
      if (typeof value !== 'string') throw castError(value, type);
      return canonicalTimestamp(value, type.base);
    case 'array': {
      const elements = parseArrayText(value, type);
      return JSON.stringify(
        elements.map((element) => {
          if (element === null) {
            if (!type.elementNullable) throw castError(value, type);
            return null;
          }
          const cast = castValue(element, type.element);
          if (typeof cast === 'bigint') return Number(cast);
          if (type.element.base === 'boolean') return cast === 1;
          return type.element.base === 'array' ? JSON.parse(cast as string) : cast;
        }),
      );
    }
  }
}

function toDouble(value: unknown, type: FireboltType): number {
  if (typeof value === 'string') {
    const lowered = value.trim().toLowerCase();
    if (lowered === 'inf' || lowered === 'infinity') return Infinity;
    if (lowered === '-inf' || lowered === '-infinity') return -Infinity;
    if (lowered === 'nan') return NaN;
  }
  const number = Number(value);
  if (Number.isNaN(number)) throw castError(value, type);
  return number;
}

function parseArrayText(value: unknown, type: FireboltType): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw castError(value, type);
    }
    if (Array.isArray(parsed)) return parsed;
  }
  throw castError(value, type);
}

function castError(value: unknown, type: FireboltType): FireboltServerError {
  return new FireboltServerError(400, 'CastError', `cannot cast ${JSON.stringify(String(value))} to ${typeName(type)}`);
}

/** True when a stored value is valid for the column type; backs the CHECK constraints. */
export function isStorageValid(value: unknown, type: FireboltType, nullable = true): boolean {
  if (value === null || value === undefined) return nullable;
  switch (type.base) {
    case 'text':
      return typeof value === 'string' && !value.includes('\u0000');
    case 'int':
      return typeof value === 'bigint' && value >= -(2n ** 31n) && value < 2n ** 31n;
    case 'long':
      return typeof value === 'bigint';
    case 'real':
    case 'double':
      return typeof value === 'number' || typeof value === 'bigint';
    case 'boolean':
      return value === 0n || value === 1n;
    case 'timestamptz':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/u.test(value);
    case 'timestamp':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/u.test(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/u.test(value);
    case 'array': {
      if (typeof value !== 'string') return false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return false; // not JSON, so not an array value
      }
      return (
        Array.isArray(parsed) &&
        parsed.every((element) => isJsonElementValid(element, type.element, type.elementNullable))
      );
    }
  }
}

function isJsonElementValid(element: unknown, type: FireboltType, nullable: boolean): boolean {
  if (element === null) return nullable;
  if (type.base === 'array')
    return (
      Array.isArray(element) && element.every((inner) => isJsonElementValid(inner, type.element, type.elementNullable))
    );
  if (type.base === 'boolean') return typeof element === 'boolean';
  if (type.base === 'int' || type.base === 'long') return Number.isInteger(element);
  if (type.base === 'real' || type.base === 'double') return typeof element === 'number';
  return isStorageValid(element, type, nullable);
}

/** Shortest decimal that reads back as the same float32, as the engine prints REAL. */
export function formatReal(value: number): string {
  const single = Math.fround(value);
  if (!Number.isFinite(single)) return JSON.stringify(nonFinite(single));
  for (let precision = 1; precision <= 9; precision++) {
    const text = Number(single.toPrecision(precision));
    if (Math.fround(text) === single) return JSON.stringify(text);
  }
  return JSON.stringify(single);
}

function nonFinite(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  return value > 0 ? 'inf' : '-inf';
}

/** JSON text of one stored value in the JSON_Compact encoding of its type. */
export function formatJsonValue(value: unknown, type: FireboltType): string {
  if (value === null || value === undefined) return 'null';
  switch (type.base) {
    case 'int':
    case 'long':
      return typeof value === 'bigint' ? value.toString() : JSON.stringify(Math.trunc(Number(value)));
    case 'real':
      return formatReal(Number(value));
    case 'double': {
      const number = Number(value);
      return Number.isFinite(number) ? JSON.stringify(number) : JSON.stringify(nonFinite(number));
    }
    case 'boolean':
      return value === 0n || value === 0 || value === false ? 'false' : 'true';
    case 'text':
      return JSON.stringify(String(value));
    case 'timestamptz':
    case 'timestamp':
    case 'date':
      return JSON.stringify(trimFraction(String(value)));
    case 'array': {
      const elements = typeof value === 'string' ? (JSON.parse(value) as unknown[]) : (value as unknown[]);
      return `[${elements.map((element) => formatJsonValue(typeof element === 'boolean' ? Number(element) : element, type.element)).join(',')}]`;
    }
  }
}

/** Type of a computed column, inferred from its values (the engine infers it from the expression). */
export function inferType(values: readonly unknown[]): { type: FireboltType; nullable: boolean } {
  const present = values.find((value) => value !== null && value !== undefined);
  const nullable = present === undefined || values.some((value) => value === null || value === undefined);
  if (typeof present === 'bigint') return { type: { base: 'long' }, nullable };
  if (typeof present === 'number') return { type: { base: 'double' }, nullable };
  return { type: { base: 'text' }, nullable };
}
