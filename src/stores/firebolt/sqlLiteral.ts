import { MemoryError } from '../../core/domain/errors.ts';

/**
 * The one place this store writes a value into SQL text instead of sending it in
 * `query_parameters`. Only two things need it: the query vector of VECTOR_SEARCH (the engine
 * wants a literal there) and identifiers in DDL. Everything user-supplied goes through
 * `$n` parameters.
 *
 * Audit notes:
 * - numbers: only finite values, printed by Number#toString, which yields digits, '.', 'e',
 *   '+' and '-' only, so nothing can end the literal early; NaN/Infinity are rejected because
 *   Firebolt has no literal for them.
 * - strings: single quotes doubled; backslashes stay literal because Firebolt's
 *   standard_conforming_strings is on (E'' strings are never produced). NUL is rejected
 *   because TEXT cannot hold it.
 * - identifiers: double quotes doubled; same NUL rule.
 */
export type SqlLiteralValue = number | string | boolean | null | readonly number[] | Float32Array;

export function sqlLiteral(value: SqlLiteralValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'string') return `'${withoutNul(value, 'string literal').replaceAll("'", "''")}'`;
  return `[${Array.from(value, numberLiteral).join(',')}]`;
}

export function sqlIdentifier(name: string): string {
  return `"${withoutNul(name, 'identifier').replaceAll('"', '""')}"`;
}

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) {
    throw new MemoryError('INVALID_INPUT', `Cannot write ${value} into Firebolt SQL: only finite numbers have a literal.`);
  }
  return String(value);
}

function withoutNul(text: string, what: string): string {
  if (text.includes('\u0000')) throw new MemoryError('INVALID_INPUT', `A Firebolt ${what} cannot contain the NUL character.`);
  return text;
}
