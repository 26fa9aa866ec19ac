import { FireboltServerError } from './serverErrors.ts';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'op' | 'space';

/** One lexical token of Firebolt SQL; `text` is what goes back out when the token is not rewritten. */
export interface Token {
  kind: TokenKind;
  text: string;
  /** Decoded value of string literals and quoted identifiers. */
  value?: string;
}

/** A parenthesised or bracketed run of nodes, kept as a tree so rewrites can see operands. */
export interface Group {
  kind: 'group';
  open: '(' | '[';
  children: Node[];
}

export type Node = Token | Group;

const OPERATORS = [
  '::',
  '=>',
  '->',
  '<=',
  '>=',
  '<>',
  '!=',
  '||',
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '.',
  '?',
];

/**
 * Splits Firebolt SQL into tokens. Comments become a single space (as the engine ignores them);
 * `E'…'` escape strings are decoded here so the rest of the translator sees plain literals.
 */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const rest = sql.startsWith.bind(sql);
    if (/\s/u.test(ch)) {
      let j = i;
      while (j < sql.length && /\s/u.test(sql[j])) j++;
      tokens.push({ kind: 'space', text: sql.slice(i, j) });
      i = j;
    } else if (rest('--', i)) {
      const end = sql.indexOf('\n', i);
      tokens.push({ kind: 'space', text: ' ' });
      i = end === -1 ? sql.length : end + 1;
    } else if (rest('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw syntax('unterminated comment', i);
      tokens.push({ kind: 'space', text: ' ' });
      i = end + 2;
    } else if ((ch === 'E' || ch === 'e') && sql[i + 1] === "'") {
      const { value, end } = readEscapeString(sql, i + 2);
      tokens.push({ kind: 'string', text: quoteString(value), value });
      i = end;
    } else if (ch === "'") {
      const { value, end } = readDelimited(sql, i, "'");
      tokens.push({ kind: 'string', text: sql.slice(i, end), value });
      i = end;
    } else if (ch === '"') {
      const { value, end } = readDelimited(sql, i, '"');
      tokens.push({ kind: 'quoted', text: sql.slice(i, end), value });
      i = end;
    } else if (ch === '$' && /[0-9]/u.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[0-9]/u.test(sql[j])) j++;
      tokens.push({ kind: 'param', text: sql.slice(i, j), value: sql.slice(i + 1, j) });
      i = j;
    } else if (/[0-9]/u.test(ch) || (ch === '.' && /[0-9]/u.test(sql[i + 1] ?? ''))) {
      const match = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/u.exec(sql.slice(i))!;
      tokens.push({ kind: 'number', text: match[0] });
      i += match[0].length;
    } else if (/[\p{L}_]/u.test(ch)) {
      let j = i;
      while (j < sql.length && /[\p{L}\p{N}_$]/u.test(sql[j])) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j), value: sql.slice(i, j).toLowerCase() });
      i = j;
    } else {
      const op = OPERATORS.find((candidate) => rest(candidate, i));
      if (op === undefined) throw syntax(`unexpected character ${JSON.stringify(ch)}`, i);
      tokens.push({ kind: 'op', text: op });
      i += op.length;
    }
  }
  return tokens;
}

function syntax(message: string, offset: number): FireboltServerError {
  return new FireboltServerError(400, 'SyntaxError', `syntax error: ${message} at offset ${offset}`);
}

function readDelimited(sql: string, start: number, quote: string): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const next = sql.indexOf(quote, i);
    if (next === -1) throw syntax(`unterminated ${quote === "'" ? 'string' : 'identifier'}`, start);
    value += sql.slice(i, next);
    if (sql[next + 1] === quote) {
      value += quote;
      i = next + 2;
    } else {
      return { value, end: next + 1 };
    }
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'" };

/** PostgreSQL-style escape string body, as Firebolt documents for E'…'. */
function readEscapeString(sql: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" && sql[i + 1] === "'") {
      value += "'";
      i += 2;
    } else if (ch === "'") {
      return { value, end: i + 1 };
    } else if (ch === '\\') {
      const next = sql[i + 1] ?? '';
      const hex = /^x([0-9a-fA-F]{1,2})/u.exec(sql.slice(i + 1));
      const octal = /^([0-7]{1,3})/u.exec(sql.slice(i + 1));
      const unicode = /^(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))/u.exec(sql.slice(i + 1));
      if (hex) {
        value += String.fromCodePoint(parseInt(hex[1], 16));
        i += 1 + hex[0].length;
      } else if (octal) {
        value += String.fromCodePoint(parseInt(octal[1], 8));
        i += 1 + octal[0].length;
      } else if (unicode) {
        value += String.fromCodePoint(parseInt(unicode[1] ?? unicode[2], 16));
        i += 1 + unicode[0].length;
      } else {
        value += SIMPLE_ESCAPES[next] ?? next;
        i += 2;
      }
    } else {
      value += ch;
      i += 1;
    }
  }
  throw syntax('unterminated escape string', start);
}

export function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function quoteIdentifier(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** Nests tokens by parentheses and brackets; whitespace tokens are kept. */
export function buildTree(tokens: readonly Token[]): Node[] {
  const root: Node[] = [];
  const stack: Array<{ children: Node[]; open: '(' | '[' | null }> = [{ children: root, open: null }];
  for (const token of tokens) {
    const top = stack[stack.length - 1];
    if (token.kind === 'op' && (token.text === '(' || token.text === '[')) {
      const group: Group = { kind: 'group', open: token.text, children: [] };
      top.children.push(group);
      stack.push({ children: group.children, open: token.text });
    } else if (token.kind === 'op' && (token.text === ')' || token.text === ']')) {
      const expected = token.text === ')' ? '(' : '[';
      if (top.open !== expected)
        throw new FireboltServerError(400, 'SyntaxError', `syntax error: unbalanced "${token.text}"`);
      stack.pop();
    } else {
      top.children.push(token);
    }
  }
  if (stack.length !== 1)
    throw new FireboltServerError(400, 'SyntaxError', 'syntax error: unclosed parenthesis or bracket');
  return root;
}

export function render(nodes: readonly Node[]): string {
  return nodes.map(renderNode).join('');
}

function renderNode(node: Node): string {
  if (node.kind !== 'group') return node.text;
  return `${node.open}${render(node.children)}${node.open === '(' ? ')' : ']'}`;
}

export function isWord(node: Node | undefined, ...words: string[]): boolean {
  return node !== undefined && node.kind === 'word' && (words.length === 0 || words.includes(node.value!));
}

export function isOp(node: Node | undefined, op: string): boolean {
  return node !== undefined && node.kind === 'op' && node.text === op;
}

/** Nodes without whitespace, for keyword-level parsing. */
export function significant(nodes: readonly Node[]): Node[] {
  return nodes.filter((node) => node.kind !== 'space');
}

/** Splits a node list on top-level commas. */
export function splitOnCommas(nodes: readonly Node[]): Node[][] {
  const parts: Node[][] = [[]];
  for (const node of nodes) {
    if (isOp(node, ',')) parts.push([]);
    else parts[parts.length - 1].push(node);
  }
  return parts;
}

/** Index of the first top-level word among `words` at or after `from`, or -1. */
export function findWord(nodes: readonly Node[], words: readonly string[], from = 0): number {
  for (let i = from; i < nodes.length; i++) if (isWord(nodes[i], ...words)) return i;
  return -1;
}

export function nameOf(node: Node | undefined): string {
  if (node === undefined || (node.kind !== 'word' && node.kind !== 'quoted')) {
    throw new FireboltServerError(400, 'SyntaxError', 'syntax error: expected an identifier');
  }
  return node.kind === 'quoted' ? node.value! : node.value!;
}
