import { parseNullability, parseType } from './fireboltTypes.ts';
import { rewriteExpression } from './expressionRewriter.ts';
import type { RewriteContext } from './expressionRewriter.ts';
import { translateMerge } from './mergeTranslation.ts';
import { checkOrderByAmbiguity } from './orderByCheck.ts';
import { FireboltServerError } from './serverErrors.ts';
import type { ColumnDefinition, StatementPlan } from './statementPlan.ts';
import {
  buildTree,
  findWord,
  isOp,
  isWord,
  nameOf,
  render,
  significant,
  splitOnCommas,
  tokenize,
} from './sqlTokens.ts';
import type { Node } from './sqlTokens.ts';

const syntax = (message: string): FireboltServerError =>
  new FireboltServerError(400, 'SyntaxError', `syntax error: ${message}`);

/** Turns one Firebolt SQL statement into a plan for the SQLite-backed database. */
export function translateStatement(sql: string, context: RewriteContext): StatementPlan {
  const tokens = tokenize(sql);
  const semicolon = tokens.findIndex((token) => token.kind === 'op' && token.text === ';');
  if (semicolon >= 0) {
    if (tokens.slice(semicolon + 1).some((token) => token.kind !== 'space')) {
      throw syntax('only one statement per request is allowed');
    }
    tokens.length = semicolon;
  }
  const tree = buildTree(tokens);
  const words = significant(tree);
  if (words.length === 0) throw syntax('empty statement');
  const [first, second, third] = words;

  if (isWord(first, 'begin', 'start')) return { kind: 'begin' };
  if (isWord(first, 'commit', 'end')) return { kind: 'commit' };
  if (isWord(first, 'rollback', 'abort')) return { kind: 'rollback' };
  if (isWord(first, 'use')) {
    if (isWord(second, 'engine')) return { kind: 'useEngine', name: nameOf(third) };
    return { kind: 'useDatabase', name: nameOf(isWord(second, 'database') ? third : second) };
  }
  if (isWord(first, 'create') && isWord(second, 'database')) {
    const ifNotExists = isWord(third, 'if');
    return { kind: 'createDatabase', name: nameOf(words[ifNotExists ? 5 : 2]), ifNotExists };
  }
  if (isWord(first, 'drop') && isWord(second, 'database')) {
    const ifExists = isWord(third, 'if');
    return { kind: 'dropDatabase', name: nameOf(words[ifExists ? 4 : 2]), ifExists };
  }
  if (isWord(first, 'create') && findWord(words.slice(0, 3), ['table']) >= 0)
    return translateCreateTable(words, context);
  if (isWord(first, 'drop') && isWord(second, 'table')) {
    const ifExists = isWord(third, 'if');
    return { kind: 'dropTable', table: nameOf(words[ifExists ? 4 : 2]), ifExists };
  }
  if (isWord(first, 'alter') && isWord(second, 'table')) return translateAlterTable(words, context);
  if (isWord(first, 'create') && isWord(second, 'index')) return translateCreateIndex(words);
  if (isWord(first, 'create') && isWord(second, 'aggregating'))
    throw new FireboltServerError(
      400,
      'UnsupportedSyntax',
      'aggregating indexes are not supported by the Firebolt test server',
    );
  if (isWord(first, 'drop') && isWord(second, 'index')) {
    const ifExists = isWord(third, 'if');
    return { kind: 'dropIndex', name: nameOf(words[ifExists ? 4 : 2]), ifExists };
  }
  if (isWord(first, 'merge')) return { kind: 'sql', statements: translateMerge(rewriteExpression(tree, context)) };
  if (isWord(first, 'select', 'with', 'insert', 'update', 'delete', 'values')) {
    if (isWord(first, 'select', 'with')) checkOrderByAmbiguity(tree, context.hasColumn);
    const rewritten = render(rewriteExpression(tree, context)).trim();
    return { kind: 'sql', statements: [rewritten] };
  }
  if (isWord(first, 'truncate')) {
    return { kind: 'sql', statements: [`DELETE FROM ${render([words[isWord(second, 'table') ? 2 : 1]])}`] };
  }
  throw new FireboltServerError(
    400,
    'UnsupportedSyntax',
    `statement "${render([first]).toUpperCase()}" is not supported by the Firebolt test server`,
  );
}

/** CREATE [FACT|DIMENSION] TABLE [IF NOT EXISTS] t (…) [PRIMARY INDEX …] [PARTITION BY …] [WITH (…)] */
function translateCreateTable(words: Node[], context: RewriteContext): StatementPlan {
  let i = findWord(words, ['table']) + 1;
  const ifNotExists = isWord(words[i], 'if');
  if (ifNotExists) i += 3;
  const table = nameOf(words[i]);
  const body = words[i + 1];
  if (body?.kind !== 'group' || body.open !== '(') throw syntax('CREATE TABLE needs a column list');
  const columns = splitOnCommas(body.children).map((part) => parseColumn(part, context));
  let primaryIndex: string[] = [];
  const primary = findWord(words, ['primary'], i + 2);
  if (primary >= 0) {
    if (!isWord(words[primary + 1], 'index')) throw syntax('expected PRIMARY INDEX');
    const end = findWord(words, ['partition', 'with'], primary + 2);
    primaryIndex = splitOnCommas(words.slice(primary + 2, end < 0 ? words.length : end)).map((part) => nameOf(part[0]));
    for (const name of primaryIndex) {
      const column = columns.find((candidate) => candidate.name === name);
      if (!column)
        throw new FireboltServerError(
          400,
          'UnknownColumn',
          `primary index column "${name}" is not a column of ${table}`,
        );
      if (column.nullable)
        throw new FireboltServerError(400, 'InvalidIndex', `primary index column "${name}" must be NOT NULL`);
    }
  }
  return { kind: 'createTable', table, ifNotExists, columns, primaryIndex };
}

/** ALTER TABLE t ADD COLUMN [IF NOT EXISTS] name type [NULL | NOT NULL] [DEFAULT expr]: the one form the store's migrations use. */
function translateAlterTable(words: Node[], context: RewriteContext): StatementPlan {
  const table = nameOf(words[2]);
  if (!isWord(words[3], 'add') || !isWord(words[4], 'column')) {
    throw new FireboltServerError(
      400,
      'UnsupportedSyntax',
      'the Firebolt test server supports ALTER TABLE … ADD COLUMN only',
    );
  }
  const ifNotExists = isWord(words[5], 'if');
  const definition = words.slice(ifNotExists ? 8 : 5);
  if (definition.length < 2) throw syntax('ADD COLUMN needs a name and a type');
  return { kind: 'addColumn', table, ifNotExists, column: parseColumn(definition, context) };
}

function parseColumn(part: readonly Node[], context: RewriteContext): ColumnDefinition {
  const nodes = significant(part);
  const name = nameOf(nodes[0]);
  const { type, next } = parseType(nodes, 1);
  let nullable: boolean | undefined;
  let defaultSql: string | null = null;
  let i = next;
  while (i < nodes.length) {
    const nullability = parseNullability(nodes, i);
    if (nullability.nullable !== undefined) {
      nullable = nullability.nullable;
      i = nullability.next;
    } else if (isWord(nodes[i], 'default')) {
      let end = i + 1;
      while (end < nodes.length && !isWord(nodes[end], 'null', 'not', 'unique')) end++;
      const expression = nodes
        .slice(i + 1, end)
        .flatMap((node, index) => (index === 0 ? [node] : [{ kind: 'space' as const, text: ' ' }, node]));
      defaultSql = render(rewriteExpression(expression, context));
      i = end;
    } else if (isWord(nodes[i], 'unique')) {
      i += 1; // Firebolt's UNIQUE is an unenforced hint.
    } else {
      throw syntax(`unexpected "${render([nodes[i]])}" in the definition of column "${name}"`);
    }
  }
  // Current Firebolt docs: columns are nullable unless NOT NULL is written.
  return { name, type, nullable: nullable ?? true, defaultSql };
}

const METRICS: Record<string, 'cosine' | 'ip' | 'l2sq'> = {
  vector_cosine_ops: 'cosine',
  vector_ip_ops: 'ip',
  vector_l2sq_ops: 'l2sq',
};

/** CREATE INDEX [IF NOT EXISTS] name ON t USING HNSW (col ops) WITH (dimension = n, …) */
function translateCreateIndex(words: Node[]): StatementPlan {
  let i = 2;
  const ifNotExists = isWord(words[i], 'if');
  if (ifNotExists) i += 3;
  const name = nameOf(words[i]);
  if (!isWord(words[i + 1], 'on')) throw syntax('expected ON after the index name');
  const table = nameOf(words[i + 2]);
  if (!isWord(words[i + 3], 'using')) throw syntax('expected USING');
  const method = words[i + 4];
  if (!isWord(method, 'hnsw')) {
    throw new FireboltServerError(
      400,
      'UnsupportedSyntax',
      `index method "${render([method]).trim()}" is not supported by the Firebolt test server`,
    );
  }
  const target = words[i + 5];
  if (target?.kind !== 'group') throw syntax('expected (column opclass)');
  const [columnNode, opsNode] = significant(target.children);
  const metric = METRICS[opsNode?.kind === 'word' ? opsNode.value! : ''];
  if (!metric) throw syntax('expected vector_cosine_ops, vector_ip_ops or vector_l2sq_ops');
  const options = words[i + 6];
  if (!isWord(options, 'with') || words[i + 7]?.kind !== 'group')
    throw syntax('HNSW indexes need WITH (dimension = n)');
  let dimension = 0;
  for (const option of splitOnCommas((words[i + 7] as { children: Node[] }).children)) {
    const [key, equals, value] = significant(option);
    if (!isOp(equals, '=')) throw syntax('index options are key = value');
    if (isWord(key, 'dimension')) dimension = Number(render([value]));
  }
  if (!Number.isInteger(dimension) || dimension <= 0) throw syntax('dimension must be a positive integer');
  return { kind: 'createVectorIndex', name, table, column: nameOf(columnNode), metric, dimension, ifNotExists };
}
