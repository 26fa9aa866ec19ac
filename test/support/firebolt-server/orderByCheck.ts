import { FireboltServerError } from './serverErrors.ts';
import { findWord, isOp, isWord, significant, splitOnCommas } from './sqlTokens.ts';
import type { Node, Token } from './sqlTokens.ts';

const CLAUSE_END = ['where', 'group', 'having', 'order', 'limit', 'offset', 'union', 'qualify', 'window'];
const NOT_AN_ALIAS = new Set([
  'on',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'using',
  ...CLAUSE_END,
]);

/**
 * In a joined SELECT, `ORDER BY name` where `name` is an output alias of some other expression
 * and also a column of a joined table is ambiguous: SQLite silently picks the alias, a stricter
 * engine refuses (issue 15 asks the store to qualify such names). Checked on the outermost
 * query of the statement; `hasColumn` answers from the catalog.
 */
export function checkOrderByAmbiguity(
  nodes: readonly Node[],
  hasColumn: (table: string, column: string) => boolean,
): void {
  const words = significant(nodes);
  const select = words.findLastIndex((node) => isWord(node, 'select'));
  const from = findWord(words, ['from'], select + 1);
  const order = findWord(words, ['order'], from + 1);
  if (select < 0 || from < 0 || order < 0 || !isWord(words[order + 1], 'by')) return;
  const fromEnd = findWord(words, CLAUSE_END, from + 1);
  const fromClause = words.slice(from + 1, fromEnd < 0 ? words.length : fromEnd);
  if (findWord(fromClause, ['join']) < 0) return;

  const tables: { name: string; alias: string }[] = [];
  fromClause.forEach((node, index) => {
    const previous = index === 0 || isWord(fromClause[index - 1], 'join') || isOp(fromClause[index - 1], ',');
    if (!previous || (node.kind !== 'word' && node.kind !== 'quoted')) return;
    const name = (node as Token).value!;
    let aliasAt = index + 1;
    if (isWord(fromClause[aliasAt], 'as')) aliasAt++;
    const candidate = fromClause[aliasAt];
    const alias =
      candidate &&
      (candidate.kind === 'word' || candidate.kind === 'quoted') &&
      !NOT_AN_ALIAS.has((candidate as Token).value!)
        ? (candidate as Token).value!
        : name;
    tables.push({ name, alias });
  });

  const aliases = new Map<string, Node[]>();
  for (const item of splitOnCommas(words.slice(select + 1, from))) {
    const parts = significant(item);
    const as = parts.findLastIndex((node) => isWord(node, 'as'));
    const alias = parts[as + 1];
    if (as > 0 && alias && (alias.kind === 'word' || alias.kind === 'quoted'))
      aliases.set((alias as Token).value!, parts.slice(0, as));
  }

  const orderEnd = findWord(words, ['limit', 'offset'], order + 2);
  for (const item of splitOnCommas(words.slice(order + 2, orderEnd < 0 ? words.length : orderEnd))) {
    const [first, second] = significant(item);
    if (first?.kind !== 'word' || isOp(second, '.')) continue;
    const name = (first as Token).value!;
    const expression = aliases.get(name);
    if (!expression) continue;
    for (const table of tables) {
      const sameColumn =
        expression.length === 3 &&
        (expression[0] as Token).value === table.alias &&
        isOp(expression[1], '.') &&
        (expression[2] as Token).value === name;
      if (!sameColumn && hasColumn(table.name, name)) {
        throw new FireboltServerError(
          400,
          'AmbiguousColumn',
          `ORDER BY ${name} is ambiguous: an output column and a column of ${table.alias}; qualify it`,
        );
      }
    }
  }
}
