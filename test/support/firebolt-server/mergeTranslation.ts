import { FireboltServerError } from './serverErrors.ts';
import { findWord, isWord, nameOf, quoteIdentifier, quoteString, render, significant } from './sqlTokens.ts';
import type { Node } from './sqlTokens.ts';

const syntax = (message: string): FireboltServerError =>
  new FireboltServerError(400, 'SyntaxError', `syntax error in MERGE: ${message}`);

const spaced = (nodes: readonly Node[]): string => nodes.map((node) => render([node])).join(' ');

const SOURCE_TABLE = 'temp.__fb_merge_source';

/**
 * SQLite has no MERGE. The statement becomes: materialise the source with a "matched" flag
 * computed against the target as it was before the statement, then one UPDATE/DELETE for the
 * matched rows and one INSERT for the others, all inside the savepoint the database wraps
 * around a plan.
 *
 * MERGE INTO target [AS] t USING (subquery) | table [AS] s ON cond
 *   WHEN MATCHED [AND c] THEN UPDATE SET … | DELETE | DO NOTHING
 *   WHEN NOT MATCHED [BY TARGET] [AND c] THEN INSERT (cols) VALUES (…) | DO NOTHING
 */
export function translateMerge(rewritten: readonly Node[]): string[] {
  const words = significant(rewritten);
  if (!isWord(words[1], 'into')) throw syntax('expected MERGE INTO');
  const target = nameOf(words[2]);
  let i = 3;
  if (isWord(words[i], 'as')) i++;
  const targetAlias = isWord(words[i], 'using') ? target : nameOf(words[i++]);
  if (!isWord(words[i], 'using')) throw syntax('expected USING');
  const source = words[i + 1];
  const sourceSql = source.kind === 'group' ? render([source]) : quoteIdentifier(nameOf(source));
  i += 2;
  if (isWord(words[i], 'as')) i++;
  const sourceAlias = nameOf(words[i++]);
  if (!isWord(words[i], 'on')) throw syntax('expected ON');
  const firstWhen = findWord(words, ['when'], i + 1);
  if (firstWhen < 0) throw syntax('expected at least one WHEN clause');
  const condition = spaced(words.slice(i + 1, firstWhen));

  const t = quoteIdentifier(targetAlias);
  const s = quoteIdentifier(sourceAlias);
  const statements = [
    `DROP TABLE IF EXISTS ${SOURCE_TABLE}`,
    `CREATE TEMP TABLE __fb_merge_source AS SELECT ${s}.*, EXISTS (SELECT 1 FROM ${quoteIdentifier(target)} AS ${t} WHERE ${condition}) AS __fb_matched FROM ${sourceSql} AS ${s}`,
  ];
  // Firebolt, like Postgres, refuses a MERGE whose source matches one target row twice.
  statements.push(
    `SELECT fb_merge_duplicate(${quoteString(target)}) FROM (SELECT ${t}.rowid FROM ${quoteIdentifier(target)} AS ${t} JOIN ${SOURCE_TABLE} AS ${s} ON ${condition} GROUP BY ${t}.rowid HAVING COUNT(*) > 1 LIMIT 1)`,
  );
  const clauses: Node[][] = [];
  for (let start = firstWhen; start < words.length;) {
    const end = findWord(words, ['when'], start + 1);
    clauses.push(words.slice(start, end < 0 ? words.length : end));
    start = end < 0 ? words.length : end;
  }
  const inserts: string[] = [];
  for (const clause of clauses) {
    const matched = isWord(clause[1], 'matched');
    const notMatched = isWord(clause[1], 'not') && isWord(clause[2], 'matched');
    if (!matched && !notMatched) throw syntax('expected WHEN [NOT] MATCHED');
    if (notMatched && isWord(clause[3], 'by') && isWord(clause[4], 'source')) {
      throw new FireboltServerError(
        400,
        'UnsupportedSyntax',
        'WHEN NOT MATCHED BY SOURCE is not supported by the Firebolt test server',
      );
    }
    const then = findWord(clause, ['then']);
    const andAt = findWord(clause.slice(0, then), ['and']);
    const extra = andAt >= 0 ? ` AND (${spaced(clause.slice(andAt + 1, then))})` : '';
    const action = clause.slice(then + 1);
    const rows = `(SELECT * FROM ${SOURCE_TABLE} WHERE __fb_matched = ${matched ? 1 : 0})`;
    if (isWord(action[0], 'do') && isWord(action[1], 'nothing')) continue;
    if (matched && isWord(action[0], 'update') && isWord(action[1], 'set')) {
      statements.push(
        `UPDATE ${quoteIdentifier(target)} AS ${t} SET ${spaced(action.slice(2))} FROM ${rows} AS ${s} WHERE (${condition})${extra}`,
      );
    } else if (matched && isWord(action[0], 'delete')) {
      statements.push(
        `DELETE FROM ${quoteIdentifier(target)} AS ${t} WHERE EXISTS (SELECT 1 FROM ${rows} AS ${s} WHERE (${condition})${extra})`,
      );
    } else if (notMatched && isWord(action[0], 'insert')) {
      const columns = action[1];
      const valuesAt = findWord(action, ['values']);
      if (columns?.kind !== 'group' || valuesAt !== 2 || action[3]?.kind !== 'group')
        throw syntax('expected INSERT (columns) VALUES (…)');
      const values = render((action[3] as { children: Node[] }).children);
      inserts.push(
        `INSERT INTO ${quoteIdentifier(target)} ${render([columns])} SELECT ${values} FROM ${rows} AS ${s} WHERE TRUE${extra}`,
      );
    } else {
      throw syntax(`unsupported action "${spaced(action.slice(0, 2))}"`);
    }
  }
  // Inserts run last so the rows they add are never seen by the matched clauses.
  return [...statements, ...inserts, `DROP TABLE ${SOURCE_TABLE}`];
}
