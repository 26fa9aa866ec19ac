import { MemoryError } from '../../core/domain/errors.ts';
import type { QueryParam } from './queryParameters.ts';

/**
 * The one place this store writes a value into SQL text instead of sending it in
 * `query_parameters`. Four things need it: the query vector of VECTOR_SEARCH (the engine
 * wants a literal there), the pattern of LIKE (a TEXT constant, like page), identifiers in DDL, and `$n` values of a statement whose parameters
 * would make the URL longer than MAX_REQUEST_TARGET_BYTES (inlineParameters.ts puts them in the
 * body instead; every `$n` the store writes carries an explicit cast, so the literal's own type
 * does not matter).
 *
 * Audit notes:
 * - numbers: only finite values, printed by Number#toString, which yields digits, '.', 'e',
 *   '+' and '-' only, so nothing can end the literal early; NaN/Infinity are rejected because
 *   Firebolt has no literal for them.
 * - strings: single quotes doubled; backslashes stay literal because Firebolt's
 *   standard_conforming_strings is on (E'' strings are never produced). NUL is rejected
 *   because TEXT cannot hold it.
 * - identifiers: double quotes doubled; same NUL rule.
 * - parameter values (sqlParameterLiteral): strings and numbers as above; bigint as its digits;
 *   a negative number parenthesised so a following `::TYPE` cannot bind to the digits alone;
 *   NaN/±Infinity as the text Firebolt reads for them ('nan', 'inf', '-inf'), which the cast
 *   after the placeholder turns into a DOUBLE PRECISION; arrays element by element in `[…]`.
 */
export type SqlLiteralValue = number | string | boolean | null | readonly number[] | Float32Array;

export function sqlLiteral(value: SqlLiteralValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'string') return `'${withoutNul(value, 'string literal').replaceAll("'", "''")}'`;
  return `[${Array.from(value, numberLiteral).join(',')}]`;
}

/** A `$n` value as a literal, for a statement sent with its values in the body. */
export function sqlParameterLiteral(value: QueryParam): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'bigint') return value < 0n ? `(${value.toString()})` : value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "'nan'";
    if (!Number.isFinite(value)) return value > 0 ? "'inf'" : "'-inf'";
    return value < 0 || Object.is(value, -0) ? `(${numberLiteral(value)})` : numberLiteral(value);
  }
  if (typeof value === 'string') return sqlLiteral(value);
  return `[${value.map(sqlParameterLiteral).join(',')}]`;
}

export function sqlIdentifier(name: string): string {
  return `"${withoutNul(name, 'identifier').replaceAll('"', '""')}"`;
}

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Cannot write ${value} into Firebolt SQL: only finite numbers have a literal.`,
    );
  }
  return String(value);
}

function withoutNul(text: string, what: string): string {
  if (text.includes('\u0000'))
    throw new MemoryError('INVALID_INPUT', `A Firebolt ${what} cannot contain the NUL character.`);
  return text;
}
