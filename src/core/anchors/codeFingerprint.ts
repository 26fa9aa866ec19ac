import { sha256Base64Url } from '../util/sha256.ts';

/**
 * Fingerprints of anchored code. Whitespace, line breaks, indentation, trailing commas, semicolons
 * and quote style do not count (a formatter's changes leave the fingerprint unchanged); comments
 * do not count either. Anything else is a change, and token similarity says how large.
 */

/**
 * Below this Jaccard similarity of distinct code tokens (stored vs now) an anchor is `changed`; at
 * or above it, a small edit (a renamed local, one extra line in a 20-line function) keeps it `fresh`.
 */
export const CHANGED_THRESHOLD = 0.8;

/** Distinct tokens kept per anchor: enough for a few hundred lines of code, small in metadata. */
export const MAX_ANCHOR_TOKENS = 256;

const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|(?<=^|\s)#(?=\s|$)[^\n]*/g;
const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|[^\s\w]/g;
/** Punctuation a formatter adds or removes freely. */
const FORMATTING_TOKENS = new Set([';', ',']);

/** The code's tokens with comments, whitespace and formatting-only punctuation removed, quotes unified. */
export function codeTokens(code: string): string[] {
  const tokens: string[] = [];
  for (const [token] of code.replace(COMMENT, ' ').matchAll(TOKEN)) {
    if (FORMATTING_TOKENS.has(token)) continue;
    tokens.push(isQuoted(token) ? `"${token.slice(1, -1)}"` : token);
  }
  return tokens;
}

function isQuoted(token: string): boolean {
  const first = token[0];
  return (first === '"' || first === "'" || first === '`') && token.length >= 2;
}

/** Hash of the normalised token stream: equal for code that differs only in formatting. */
export function fingerprintOf(code: string): string {
  return fingerprintOfTokens(codeTokens(code));
}

export function fingerprintOfTokens(tokens: readonly string[]): string {
  return sha256Base64Url(tokens.join('\u0001')).slice(0, 22);
}

/** Distinct tokens hashed to 32-bit integers, sorted; collisions are negligible at a few hundred tokens. */
export function tokenSketch(tokens: readonly string[], cap = MAX_ANCHOR_TOKENS): number[] {
  const hashes = new Set<number>();
  for (const token of tokens) {
    hashes.add(fnv1a(token));
    if (hashes.size >= cap) break;
  }
  return [...hashes].sort((a, b) => a - b);
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

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
