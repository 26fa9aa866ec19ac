import { MemoryError } from '../../core/domain/errors.ts';
import type { QueryParam } from './queryParameters.ts';
import { sqlParameterLiteral } from './sqlLiteral.ts';

/**
 * Replaces each `$n` placeholder of a statement by its value as a literal (sqlParameterLiteral,
 * the audited escaping), for statements whose parameters would not fit in the URL. Placeholders
 * are found outside string literals, quoted identifiers and comments, so a `$1` inside a value
 * or a name is left alone.
 */
export function inlineParameters(sql: string, params: readonly QueryParam[]): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = closingQuote(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === '$' && /[0-9]/u.test(sql[i + 1] ?? '') && !/[\p{L}\p{N}_$]/u.test(sql[i - 1] ?? ' ')) {
      let end = i + 1;
      while (end < sql.length && /[0-9]/u.test(sql[end])) end++;
      const index = Number(sql.slice(i + 1, end)) - 1;
      if (index < 0 || index >= params.length) {
        throw new MemoryError(
          'INVALID_INPUT',
          `Statement uses ${sql.slice(i, end)} but only ${params.length} parameter(s) were given.`,
        );
      }
      out += sqlParameterLiteral(params[index]);
      i = end;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** Index just after the quote closing the literal that opens at `start`; a doubled quote is an escaped one. */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return sql.length;
}
