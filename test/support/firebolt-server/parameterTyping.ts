import { FireboltServerError } from './serverErrors.ts';
import { buildTree, findWord, isOp, isWord, significant, splitOnCommas, tokenize } from './sqlTokens.ts';
import type { Node, Token } from './sqlTokens.ts';

/**
 * Firebolt types a `query_parameters` value from its JSON alone: a string is TEXT, an integer
 * BIGINT, a fraction DOUBLE PRECISION, `null` the NULL type and `[]` an array of unknown
 * elements. Where a value is written (INSERT, a MERGE source) that type has to fit: an empty
 * array has no element type unless the SQL casts it, a MERGE source column that is NULL in
 * every row has no type, and the rows of a UNION ALL source must agree (BIGINT in one row,
 * DOUBLE PRECISION in the next do not). SQLite accepts all of these silently.
 */
/** `values` are the parameters as JSON decoded them (parseRawParameters). */
export function checkParameterTypes(sql: string, values: readonly unknown[]): void {
  const words = significant(buildTree(tokenize(sql)));
  if (!isWord(words[0], 'insert', 'merge')) return;
  checkUncastValues(sql, values);
  if (isWord(words[0], 'merge')) {
    const using = findWord(words, ['using']);
    const source = words[using + 1];
    if (source?.kind === 'group') checkUnionBranches(source.children, values);
  }
}

function checkUncastValues(sql: string, values: readonly unknown[]): void {
  const tokens = tokenize(sql).filter((token) => token.kind !== 'space');
  tokens.forEach((token, index) => {
    if (token.kind !== 'param' || isCast(tokens, index)) return;
    const value = values[Number(token.value) - 1];
    if (Array.isArray(value) && value.length === 0) {
      throw new FireboltServerError(
        400,
        'TypeError',
        `cannot determine the element type of ${token.text}: an empty array parameter needs an explicit cast (${token.text}::ARRAY(TYPE))`,
      );
    }
  });
}

/** `$n::TYPE` or `CAST($n AS TYPE)`. */
function isCast(tokens: readonly Token[], index: number): boolean {
  if (isOp(tokens[index + 1], '::')) return true;
  return isOp(tokens[index - 1], '(') && isWord(tokens[index - 2], 'cast');
}

/**
 * A MERGE source's column types come from its rows: the n-th column of every `SELECT … UNION
 * ALL SELECT …` branch must have one type, and a column that is NULL in every row has none.
 */
function checkUnionBranches(children: readonly Node[], values: readonly unknown[]): void {
  const nodes = significant(children);
  const branches: Node[][] = [[]];
  for (let i = 0; i < nodes.length; i++) {
    if (isWord(nodes[i], 'union') && isWord(nodes[i + 1], 'all')) {
      branches.push([]);
      i++;
    } else {
      branches[branches.length - 1].push(nodes[i]);
    }
  }
  const types: (string | null)[][] = branches.map((branch) => {
    if (!isWord(branch[0], 'select')) return [];
    const from = findWord(branch, ['from']);
    return splitOnCommas(branch.slice(1, from < 0 ? branch.length : from)).map((column) =>
      uncastParameterType(significant(column), values),
    );
  });
  for (let column = 0; column < types[0].length; column++) {
    const inColumn = types.map((branch) => branch[column]);
    if (inColumn.every((type) => type === 'NULL')) {
      throw new FireboltServerError(
        400,
        'TypeError',
        `MERGE source column ${column + 1} is NULL in every row, so it has no type; cast the parameter`,
      );
    }
    const seen = new Set(inColumn.filter((type): type is string => typeof type === 'string' && type !== 'NULL'));
    if (seen.size > 1) {
      throw new FireboltServerError(
        400,
        'TypeError',
        `UNION ALL branches disagree on the type of column ${column + 1}: ${[...seen].join(' vs ')}; cast the parameters`,
      );
    }
  }
}

/** The type Firebolt gives an uncast `$n [AS alias]` column; null when the column is anything else. */
function uncastParameterType(column: readonly Node[], values: readonly unknown[]): string | null {
  const [first, second] = column;
  if (first?.kind !== 'param' || (second !== undefined && !isWord(second, 'as'))) return null;
  const value = values[Number((first as Token).value) - 1];
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return 'BIGINT';
  if (typeof value === 'number') return Number.isInteger(value) ? 'BIGINT' : 'DOUBLE PRECISION';
  if (typeof value === 'string') return 'TEXT';
  if (typeof value === 'boolean') return 'BOOLEAN';
  return null;
}
