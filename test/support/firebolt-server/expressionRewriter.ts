import { parseType, typeName } from './fireboltTypes.ts';
import { FireboltServerError } from './serverErrors.ts';
import { isOp, isWord, quoteIdentifier, render, significant, splitOnCommas } from './sqlTokens.ts';
import type { Group, Node, Token } from './sqlTokens.ts';

/** What an HNSW index maps to when VECTOR_SEARCH is rewritten into an exact scan. */
export interface VectorIndexInfo {
  table: string;
  column: string;
  metric: 'cosine' | 'ip' | 'l2sq';
}

export interface RewriteContext {
  /** Looks up an HNSW index by name; undefined when it does not exist. */
  vectorIndex(name: string): VectorIndexInfo | undefined;
  /** False emulates an engine without the VECTOR_SEARCH table function. */
  vectorSearchEnabled: boolean;
  /**
   * Called for every VECTOR_SEARCH with the indexed table; throws when the engine would refuse
   * it (Core without advanced_mode / enable_vector_search_tvf, an empty table).
   */
  checkVectorSearch(table: string): void;
  /** Whether a catalog table has this column (for the ORDER BY ambiguity check). */
  hasColumn(table: string, column: string): boolean;
}

const word = (text: string): Token => ({ kind: 'word', text, value: text.toLowerCase() });
const op = (text: string): Token => ({ kind: 'op', text });
const space: Token = { kind: 'space', text: ' ' };
const str = (value: string): Token => ({ kind: 'string', text: `'${value.replaceAll("'", "''")}'`, value });
const paren = (children: Node[]): Group => ({ kind: 'group', open: '(', children });

function call(name: string, args: Node[][]): Node[] {
  const children: Node[] = [];
  args.forEach((arg, index) => {
    if (index > 0) children.push(op(','), space);
    children.push(...arg);
  });
  return [word(name), paren(children)];
}

function unsupported(what: string): FireboltServerError {
  return new FireboltServerError(400, 'UnsupportedSyntax', `${what} is not supported by the Firebolt test server`);
}

/**
 * Rewrites Firebolt expression syntax into SQLite syntax, node by node. Every rewrite here is
 * listed in the server README.
 */
export function rewriteExpression(nodes: readonly Node[], context: RewriteContext): Node[] {
  const out: Node[] = [];
  const lastSignificant = (): number => {
    for (let i = out.length - 1; i >= 0; i--) if (out[i].kind !== 'space') return i;
    return -1;
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const next = nextSignificant(nodes, i);
    if (node.kind === 'group') {
      const children = rewriteExpression(node.children, context);
      if (node.open === '(') {
        out.push({ ...node, children });
        continue;
      }
      const previous = out[lastSignificant()];
      const subscript =
        previous !== undefined &&
        (previous.kind === 'group' || previous.kind === 'quoted' || (previous.kind === 'word' && !isKeyword(previous)));
      if (subscript) throw unsupported('array subscripts');
      out.push(...call('fb_array', nonEmpty(splitOnCommas(children))));
      continue;
    }
    if (node.kind === 'param') {
      out.push({ kind: 'param', text: `?${node.value}`, value: node.value });
    } else if (
      isWord(node, 'current_timestamp', 'localtimestamp') ||
      (isWord(node, 'now') && isEmptyCall(nodes[next.index]))
    ) {
      out.push(...call('fb_now', []));
      if (isWord(node, 'now')) i = next.index;
    } else if (isWord(node, 'array') && next.node?.kind === 'group' && next.node.open === '[') {
      continue;
    } else if (isWord(node, 'cast') && next.node?.kind === 'group' && next.node.open === '(') {
      out.push(...rewriteCast(next.node, context));
      i = next.index;
    } else if (isWord(node, 'vector_search') && next.node?.kind === 'group' && next.node.open === '(') {
      if (!context.vectorSearchEnabled)
        throw new FireboltServerError(400, 'UnknownFunction', 'function VECTOR_SEARCH does not exist');
      out.push(rewriteVectorSearch(next.node, context));
      i = next.index;
    } else if (isWord(node, 'greatest', 'least') && next.node?.kind === 'group') {
      out.push(word(node.value === 'greatest' ? 'max' : 'min'));
    } else if (isOp(node, '::')) {
      let start = lastSignificant();
      if (start < 0) throw new FireboltServerError(400, 'SyntaxError', 'syntax error: "::" without an operand');
      if (out[start].kind === 'group' && out[start - 1]?.kind === 'word' && !isKeyword(out[start - 1])) start -= 1;
      const operand = out.splice(start);
      const rest = collectSignificant(nodes, i + 1);
      const parsed = parseType(rest.nodes, 0);
      out.push(...call('fb_cast', [operand, [str(typeName(parsed.type))]]));
      i = rest.indexes[parsed.next - 1];
    } else if (isOp(node, '->')) {
      throw unsupported('lambda functions');
    } else if (isOp(node, '?')) {
      throw new FireboltServerError(
        400,
        'SyntaxError',
        'syntax error: unexpected "?" (Firebolt parameters are $1, $2, …)',
      );
    } else {
      out.push(node);
    }
  }
  return out;
}

const KEYWORDS = new Set([
  'select',
  'from',
  'where',
  'and',
  'or',
  'not',
  'in',
  'values',
  'on',
  'when',
  'then',
  'else',
  'case',
  'as',
  'set',
  'by',
  'is',
  'exists',
  'using',
  'join',
  'like',
  'array',
  'limit',
  'offset',
  'having',
  'union',
  'all',
  'distinct',
  'end',
  'between',
]);

function isKeyword(node: Node): boolean {
  return node.kind === 'word' && KEYWORDS.has(node.value!);
}

function nonEmpty(parts: Node[][]): Node[][] {
  return parts.length === 1 && significant(parts[0]).length === 0 ? [] : parts;
}

function isEmptyCall(node: Node | undefined): boolean {
  return node?.kind === 'group' && node.open === '(' && significant(node.children).length === 0;
}

function nextSignificant(nodes: readonly Node[], i: number): { node: Node | undefined; index: number } {
  for (let j = i + 1; j < nodes.length; j++) if (nodes[j].kind !== 'space') return { node: nodes[j], index: j };
  return { node: undefined, index: nodes.length };
}

function collectSignificant(nodes: readonly Node[], from: number): { nodes: Node[]; indexes: number[] } {
  const result: { nodes: Node[]; indexes: number[] } = { nodes: [], indexes: [] };
  for (let j = from; j < nodes.length; j++) {
    if (nodes[j].kind === 'space') continue;
    result.nodes.push(nodes[j]);
    result.indexes.push(j);
  }
  return result;
}

function rewriteCast(group: Group, context: RewriteContext): Node[] {
  const children = significant(group.children);
  const asIndex = children.findLastIndex((node) => isWord(node, 'as'));
  if (asIndex < 0) throw new FireboltServerError(400, 'SyntaxError', 'syntax error: CAST needs AS');
  const parsed = parseType(children, asIndex + 1);
  if (parsed.next !== children.length) throw new FireboltServerError(400, 'SyntaxError', 'syntax error in CAST type');
  const operand = rewriteExpression(group.children.slice(0, group.children.indexOf(children[asIndex])), context);
  return call('fb_cast', [operand, [str(typeName(parsed.type))]]);
}

const DISTANCE_FUNCTION: Record<VectorIndexInfo['metric'], string> = {
  cosine: 'vector_cosine_distance',
  ip: '-vector_inner_product',
  l2sq: 'vector_squared_euclidean_distance',
};

/**
 * VECTOR_SEARCH(INDEX idx, target_vector => v, top_k => k [, ef_search => e]) becomes an exact
 * top-k subquery over the indexed table: same columns, same "top_k rows before any outer filter".
 */
function rewriteVectorSearch(group: Group, context: RewriteContext): Group {
  const args = splitOnCommas(group.children).map((arg) => significant(arg));
  const first = args[0] ?? [];
  if (!isWord(first[0], 'index') || first.length !== 2)
    throw new FireboltServerError(400, 'SyntaxError', 'VECTOR_SEARCH needs INDEX <name> as first argument');
  const indexName = first[1].kind === 'quoted' || first[1].kind === 'word' ? (first[1] as Token).value! : '';
  const index = context.vectorIndex(indexName);
  if (index === undefined) throw new FireboltServerError(400, 'UnknownIndex', `index "${indexName}" does not exist`);
  context.checkVectorSearch(index.table);
  const named = new Map<string, Node[]>();
  const positional = ['target_vector', 'top_k', 'ef_search'];
  args.slice(1).forEach((arg, position) => {
    if (arg.length >= 2 && arg[0].kind === 'word' && isOp(arg[1], '=>')) named.set(arg[0].value!, arg.slice(2));
    else named.set(positional[position] ?? `arg${position}`, arg);
  });
  const target = named.get('target_vector');
  const topK = named.get('top_k');
  if (!target || !topK)
    throw new FireboltServerError(400, 'SyntaxError', 'VECTOR_SEARCH needs target_vector and top_k');
  const spaced = (parts: Node[]): Node[] => parts.flatMap((part, index) => (index === 0 ? [part] : [space, part]));
  const targetSql = render(rewriteExpression(spaced(target), context));
  const topKSql = render(rewriteExpression(spaced(topK), context));
  const sql = `SELECT * FROM ${quoteIdentifier(index.table)} ORDER BY ${DISTANCE_FUNCTION[index.metric]}(${quoteIdentifier(index.column)}, ${targetSql}) ASC, rowid ASC LIMIT ${topKSql}`;
  // Already SQLite text, so it rides in one opaque token that later rewrites pass over.
  return paren([{ kind: 'word', text: sql, value: sql }]);
}
