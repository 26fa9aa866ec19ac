/**
 * Code-aware tokenizer. Prose splits on whitespace and punctuation; identifiers
 * (camelCase, snake_case, kebab-case, dotted names, paths) yield the whole identifier
 * AND its parts, so `getUserById` is found both by itself and by "user id".
 */

/** A whole identifier, one of its parts, or a plain word. Analyzers stem words and parts but never wholes. */
export type TokenKind = 'word' | 'whole' | 'part';

export interface Token {
  text: string;
  kind: TokenKind;
}

/** Characters that join identifier parts; a run of two or more is punctuation, not a joint ("...", "--"). */
const CONNECTORS = '_.-/\\:@#+';
const CHUNK = /[\p{L}\p{N}_.\-/\\:@#+]+/gu;
const CONNECTOR_RUN = /[_.\-/\\:@#+]{2,}/u;
const VERSION = /^v?\d+(?:\.\d+)+$/u;
/** Language names whose trailing symbols are the name ("c++", "c#", "f#"). */
const SYMBOL_NAME = /^\p{L}{1,2}(?:\+\+|#)$/u;
const PLAIN_WORD = /^[a-z0-9]+$/;
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const HAS_CONNECTOR = /[_.\-/\\:@#+]/u;
/** A capital after the first character: every CAMEL_BOUNDARY sits before one. */
const INNER_CAPITAL = /.\p{Lu}/su;

/**
 * NFKC (full-width and ligature forms to plain), then diacritics folded ("café" -> "cafe"),
 * curly apostrophes straightened, possessive 's dropped and other apostrophes removed
 * ("don't" -> "dont") so contractions become single stop words.
 * Case is kept: camelCase splitting needs it.
 */
export function normalizeText(text: string): string {
  // ASCII is its own NFKC and NFD form and has no marks or curly quotes: only apostrophes can change it.
  if (ASCII.test(text)) return /['`]/u.test(text) ? foldApostrophes(text.replace(/`/g, "'")) : text;
  return foldApostrophes(
    text
      .normalize('NFKC')
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[\u2018\u2019\u02bc`]/g, "'"),
  );
}

const ASCII = /^[\x00-\x7f]*$/u;

function foldApostrophes(text: string): string {
  return text.replace(/(?<=\p{L})'s\b/gu, '').replace(/(?<=\p{L})'(?=\p{L})/gu, '');
}

function trimConnectors(chunk: string): string {
  if (SYMBOL_NAME.test(chunk)) return chunk;
  let start = 0;
  let end = chunk.length;
  while (start < end && CONNECTORS.includes(chunk[start])) start++;
  while (end > start && CONNECTORS.includes(chunk[end - 1])) end--;
  return chunk.slice(start, end);
}

function splitParts(identifier: string): string[] {
  const parts: string[] = [];
  for (const piece of identifier.split(/[_.\-/\\:@#+]+/u)) {
    if (piece.length === 0) continue;
    for (const part of piece.split(CAMEL_BOUNDARY)) if (part.length > 0) parts.push(part);
  }
  return parts;
}

function pushChunk(chunk: string, out: Token[]): void {
  const trimmed = trimConnectors(chunk);
  if (trimmed.length === 0) return;
  const lower = trimmed.toLowerCase();
  if (VERSION.test(trimmed) || SYMBOL_NAME.test(trimmed)) {
    out.push({ text: lower, kind: 'word' });
    return;
  }
  // Without a connector or a capital after the first letter ("Deployed", "Ünïcode") nothing splits:
  // a word, told without the two splits that would each return a list of one.
  if (!HAS_CONNECTOR.test(trimmed) && !INNER_CAPITAL.test(trimmed)) {
    out.push({ text: lower, kind: 'word' });
    return;
  }
  const parts = splitParts(trimmed);
  if (parts.length <= 1) {
    out.push({ text: lower, kind: 'word' });
    return;
  }
  out.push({ text: lower, kind: 'whole' });
  for (const part of parts) out.push({ text: part.toLowerCase(), kind: 'part' });
}

export function tokenizeDetailed(text: string): Token[] {
  const out: Token[] = [];
  // `match` with a global pattern gives the matched strings only: no match record (index, input,
  // groups) per chunk, which every store and query would otherwise allocate and drop at once.
  // CHUNK never matches empty text, so this is every chunk, as an exec loop would find them.
  for (const chunk of normalizeText(text).match(CHUNK) ?? []) {
    // Most chunks are plain lower-case words or numbers: no connector, no capital, no dot, so every
    // rule below would give them back as one word; saying so at once halves a store's analysis.
    if (PLAIN_WORD.test(chunk)) {
      out.push({ text: chunk, kind: 'word' });
      continue;
    }
    if (SYMBOL_NAME.test(chunk)) pushChunk(chunk, out);
    else for (const piece of chunk.split(CONNECTOR_RUN)) pushChunk(piece, out);
  }
  return out;
}
