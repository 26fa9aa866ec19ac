import { sha256Base64Url } from '../util/sha256.ts';

/**
 * Fingerprints of anchored code (issue #32 point 4, issue #28 point 6). The code is reduced to its
 * tokens with everything a formatter changes removed: whitespace, line breaks, indentation, comments,
 * `;` and `,` (trailing commas), quote style and escaped quotes, the parentheses of a lone arrow
 * parameter, and the spelling of a number (`1_000`, `1.50`, `0XFF`). What is left is behaviour:
 * identifiers, called functions, keywords, operators and literals, in order. The anchored code is
 * fresh exactly when that sequence is the same (its SHA-256 `fingerprint`); any other difference,
 * however few tokens it touches (`Math.round` → `Math.floor`, `<` → `<=`, `0.2` → `0.19`, two
 * arguments swapped), makes it changed.
 *
 * Beside the fingerprint an anchor keeps a bounded sketch of its distinct tokens, hashed, to find
 * its code again in other files and to say how much changed. The sketch holds NO literals (strings,
 * numbers): a per-token hash of a literal can be guessed offline from an export (a password, say).
 *
 * Version 1 sketches (anchors stored before sketch version 2; no `sketch` field) used the same
 * tokens without the number and escape canonicalisation, and hashed literals into the sketch. They
 * are still compared by their own rules (see LEGACY_SCHEME), re-sketched once their code is found
 * unchanged, and their literal-bearing sketch is dropped when it cannot be (anchorUpdates.ts) and on
 * export (exportedAnchors.ts).
 */

/** The sketch version new anchors carry (`CodeAnchor.sketch`); absent means version 1. */
export const SKETCH_VERSION = 2;

/** Distinct tokens kept per anchor: enough for a few hundred lines of code, small in metadata. */
export const MAX_ANCHOR_TOKENS = 256;

const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|(?<=^|\s)#(?=\s|$)[^\n]*/g;
const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|[^\s\w]/g;
/** Punctuation a formatter adds or removes freely. */
const FORMATTING_TOKENS = new Set([';', ',']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** How one version of the sketch turns code into tokens, a fingerprint and a sketch. */
export interface SketchScheme {
  readonly version: 1 | 2;
  tokens(code: string): string[];
  fingerprint(tokens: readonly string[]): string;
  sketch(tokens: readonly string[], cap?: number): number[];
}

/** The code's tokens (version 2): formatting removed, quotes and numbers in one spelling, `(x) =>` as `x =>`. */
export function codeTokens(code: string): string[] {
  const tokens: string[] = [];
  for (const token of lexicalTokens(code)) {
    if (isQuoted(token)) tokens.push(`"${unescapeQuotes(token.slice(1, -1))}"`);
    else if (isNumber(token)) tokens.push(canonicalNumber(token));
    else tokens.push(token);
  }
  return withoutArrowParens(tokens);
}

/** True for string and number literals, which the sketch never holds. */
export function isLiteral(token: string): boolean {
  return isQuoted(token) || isNumber(token);
}

/** Hash of the normalised token stream: equal for code that differs only in formatting. */
export function fingerprintOf(code: string): string {
  return fingerprintOfTokens(codeTokens(code));
}

export function fingerprintOfTokens(tokens: readonly string[]): string {
  return sha256Base64Url(tokens.join('\u0001')).slice(0, 22);
}

/** Distinct non-literal tokens hashed to 32-bit integers, sorted; collisions are negligible at a few hundred tokens. */
export function tokenSketch(tokens: readonly string[], cap = MAX_ANCHOR_TOKENS): number[] {
  return hashedDistinct(
    tokens.filter((token) => !isLiteral(token)),
    cap,
  );
}

/** Jaccard similarity of two sorted sketches. */
export function sketchSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

export const CURRENT_SCHEME: SketchScheme = {
  version: 2,
  tokens: codeTokens,
  fingerprint: fingerprintOfTokens,
  sketch: tokenSketch,
};

/**
 * Version 1, kept to compare anchors stored before version 2: the same lexer without number and
 * escape canonicalisation or arrow parentheses, and a sketch of every distinct token, literals included.
 */
export const LEGACY_SCHEME: SketchScheme = {
  version: 1,
  tokens: (code) => lexicalTokens(code).map((token) => (isQuoted(token) ? `"${token.slice(1, -1)}"` : token)),
  fingerprint: fingerprintOfTokens,
  sketch: (tokens, cap = MAX_ANCHOR_TOKENS) => hashedDistinct(tokens, cap),
};

/** The scheme an anchor was sketched with. */
export function schemeOf(anchor: { sketch?: number }): SketchScheme {
  return anchor.sketch === SKETCH_VERSION ? CURRENT_SCHEME : LEGACY_SCHEME;
}

/** What an anchor stores about its code, in the current version. */
export interface CodeSketch {
  fingerprint: string;
  tokens: number[];
  size: number;
  sketch: typeof SKETCH_VERSION;
}

export function sketchOfTokens(tokens: readonly string[]): CodeSketch {
  return {
    fingerprint: fingerprintOfTokens(tokens),
    tokens: tokenSketch(tokens),
    size: tokens.length,
    sketch: SKETCH_VERSION,
  };
}

/** How code compares to an anchor's: `exact` when its fingerprint is the anchor's (fresh), and the sketch similarity. */
export function compareTokens(
  anchor: { fingerprint: string; tokens: readonly number[]; sketch?: number },
  tokens: readonly string[],
): { exact: boolean; similarity: number } {
  const scheme = schemeOf(anchor);
  if (scheme.fingerprint(tokens) === anchor.fingerprint) return { exact: true, similarity: 1 };
  // A legacy anchor whose literal-bearing sketch was dropped has nothing left to measure against.
  if (anchor.tokens.length === 0) return { exact: false, similarity: 0 };
  return { exact: false, similarity: Math.min(0.999, sketchSimilarity(anchor.tokens, scheme.sketch(tokens))) };
}

function lexicalTokens(code: string): string[] {
  const tokens: string[] = [];
  for (const [token] of code.replace(COMMENT, ' ').matchAll(TOKEN)) {
    if (FORMATTING_TOKENS.has(token)) continue;
    tokens.push(token);
  }
  return tokens;
}

function isQuoted(token: string): boolean {
  const first = token[0];
  return (first === '"' || first === "'" || first === '`') && token.length >= 2;
}

function isNumber(token: string): boolean {
  const first = token.charCodeAt(0);
  return first >= 48 && first <= 57;
}

/** `'it\'s'` and `"it's"` are the same string; a formatter picks the quotes that need fewer escapes. */
function unescapeQuotes(body: string): string {
  return body.replace(/\\(["'`])/g, '$1');
}

/** One spelling per number a formatter may rewrite: `1_000` → `1000`, `1.50` → `1.5`, `0XFF` → `0xff`, `5.` → `5`. */
function canonicalNumber(token: string): string {
  const plain = token.replace(/_/g, '').toLowerCase();
  if (/^\d+(\.\d*)?(e[+-]?\d+)?$/.test(plain)) {
    const value = Number(plain);
    if (Number.isFinite(value) && (Number.isSafeInteger(value) || !Number.isInteger(value))) return String(value);
  }
  return plain;
}

/** `(x) => …` and `x => …` are one function: a formatter's arrowParens setting decides which is printed. */
function withoutArrowParens(tokens: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    if (
      tokens[index] === '(' &&
      IDENTIFIER.test(tokens[index + 1] ?? '') &&
      tokens[index + 2] === ')' &&
      tokens[index + 3] === '=' &&
      tokens[index + 4] === '>'
    ) {
      out.push(tokens[index + 1]);
      index += 2;
      continue;
    }
    out.push(tokens[index]);
  }
  return out;
}

function hashedDistinct(tokens: readonly string[], cap: number): number[] {
  const hashes = new Set<number>();
  for (const token of tokens) {
    hashes.add(fnv1a(token));
    if (hashes.size >= cap) break;
  }
  return [...hashes].sort((a, b) => a - b);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
