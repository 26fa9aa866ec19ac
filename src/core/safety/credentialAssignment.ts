import { regexMatches } from '../util/regexMatches.ts';
import { classifyCredentialName } from './credentialName.ts';
import { isNonSecretValue, looksObscured, unquote } from './secretValue.ts';
import type { SecretKind } from './secretKinds.ts';
import type { SecretSpan } from './secretSpan.ts';

/**
 * Credentials written as a setting: `DB_PASSWORD=…`, `password: "…"`, `"api_key": "…"`,
 * `SECRET_KEY = '…'`, `GITLAB_TOKEN="…"`, `spring.datasource.password=…`, `--password=…`,
 * `<password>…</password>`, and passwords said in prose ("the staging password is …").
 * Only the value is reported, so the redacted text still says which setting held a secret.
 */

// The name must not continue an ARN or URL (`…:secret:prod/db`, `/api/token/x`), hence the look-behind.
const ASSIGNMENT =
  /(?<![\w.:/@$%{}\\-])(?<name>-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,80}?)["']?\]?\s*(?<sep>:=|=>|=|:)[ \t]*(?<value>"[^"\n]{1,400}"|'[^'\n]{1,400}'|`[^`\n]{1,400}`|(?:[^\s'"`,;(){}[\]<>&|]|&(?![\w.-]+=))+)/g;

/** A typed declaration with a quoted literal: `const API_KEY: &str = "…"`, `val token: String = "…"`, `API_KEY: str = "…"`. */
const TYPED_DECLARATION =
  /(?<![\w.])(?<name>[A-Za-z_][\w]{0,80})\s*:\s*&?(?:'[a-z]+\s+)?[A-Za-z_][\w<>[\]., ]{0,40}?\s*(?<sep>=)\s*(?<value>"[^"\n]{1,400}"|'[^'\n]{1,400}')/g;

const XML_ELEMENT = /<(?<name>[A-Za-z_][\w.-]{0,60})>(?<value>[^<\n]{1,400})<\/\k<name>>/dg;

// "the password for staging is hunter2!", "my passphrase: 'correct horse'", "password Tr0ub4dor&3".
// Longest first: the first alternative that lets the pattern match is the one used.
const PROSE_VERB = String.raw`(?:(?:(?:was|has been|have been|is|got|were)\s+)?(?:changed|set|reset|updated|rotated)\s+to|is now|is still|is|was|will be|would be|becomes|=)`;
// Curly quotes as \u escapes, which the RegExp reads: a raw text keeps its characters, and the
// bundle must stay Latin-1 (scripts/latin1Sources.mjs).
const PROSE_VALUE = String.raw`(?<value>"[^"\n]{1,200}"|'[^'\n]{1,200}'|\u201c[^\u201d\n]{1,200}\u201d|[^\s"'\u201c()[\]<>{}]+(?![(\[<{]))`;
// With "for <something>" a verb must follow, so "password for the admin console is X" yields X, not "the".
const PROSE = new RegExp(
  String.raw`\b(?:password|passwd|passphrase|passcode)\b(?:\s+(?:for|of|on|to)\s+[^\n.:;!?]{1,40}?\s+${PROSE_VERB}|(?:\s+${PROSE_VERB}|\s*:)?)\s+${PROSE_VALUE}`,
  'dgi',
);

const TRAILING_PUNCTUATION = /[.,;:!?)\]`”]+$/; // with the closing mark of inline code or of a curly quotation

/**
 * In code a bare identifier or number after `=` / `:` is a variable, a type or a constant, never a
 * literal secret: `token: CancellationToken;`, `type Pass = IsEmpty<{}>;`, `PASS_DEPTH = 0x0B95;`.
 * A quoted literal in a union (`type AuthResult = 'AUTHORIZED' | 'REDIRECT'`) is a type too.
 */
function isCodeOperand(raw: string, quoted: boolean, rest: string, spacedSeparator: boolean): boolean {
  if (quoted) return /^\s*\|/.test(rest);
  if (!/^(?:[A-Za-z_$][\w$]*|0x[0-9A-Fa-f]+|\d+(?:\.\d+)?)$/.test(raw)) return false;
  // A generic, a union or intersection (not `&key=` of a query string), an argument list end, an array type.
  if (/^(?:\s*(?:[<|,)\]]|&(?![\w.-]+=))|\[\])/.test(rest)) return true;
  // A statement end, when the separator is spaced as in code (`x = y;`), not `Password=x;` of a connection string.
  return spacedSeparator && /^;(?:\s|$)/.test(rest);
}

export function findCredentialAssignments(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of [...regexMatches(ASSIGNMENT, text), ...regexMatches(TYPED_DECLARATION, text)]) {
    const groups = match.groups as { name: string; sep: string; value: string };
    const nameClass = classifyCredentialName(groups.name);
    if (nameClass === null) continue;
    // The value ends the match; computing its place is cheaper than asking the engine for indices.
    const valueEnd = (match.index ?? 0) + match[0].length;
    const valueStart = valueEnd - groups.value.length;
    // What follows the value on its line; a bounded look keeps long single-line texts linear.
    const rest = text.slice(valueEnd, valueEnd + 80).split('\n', 1)[0];
    const { value, quoted } = unquote(groups.value);
    // A call or an index (`getPassword()`, `form['db']`, `lookup (name)`) reads the secret at run time; `pw=Zx9q (rotated monthly)` is a note.
    if (!quoted && /^(?:[([]|\s+\[|\s+\(\s*(?:\)|['"\d]|[\w$.]+\s*[,)]))/.test(rest)) continue;
    if (isCodeOperand(groups.value, quoted, rest, /\s(?::=|=>|=|:)|(?::=|=>|=|:)\s/.test(match[0]))) continue;
    if (!acceptsValue(value, quoted, nameClass, groups.sep, rest)) continue;
    const offset = quoted ? 1 : 0;
    spans.push({
      kind: nameClass === 'password' ? 'password-assignment' : 'secret-assignment',
      index: valueStart + offset,
      length: valueEnd - valueStart - 2 * offset,
    });
  }
  for (const match of regexMatches(XML_ELEMENT, text)) {
    const groups = match.groups as { name: string; value: string };
    const nameClass = classifyCredentialName(groups.name);
    if (nameClass === null || isNonSecretValue(groups.value) || groups.value.trim().length < 4) continue;
    const [start, end] = match.indices?.groups?.value ?? [0, 0];
    spans.push({
      kind: nameClass === 'password' ? 'password-assignment' : 'secret-assignment',
      index: start,
      length: end - start,
    });
  }
  for (const match of regexMatches(PROSE, text)) {
    const raw = (match.groups as { value: string }).value;
    const { value, quoted } = unquote(raw);
    const bare = quoted ? value : value.replace(TRAILING_PUNCTUATION, '');
    if (isNonSecretValue(bare)) continue;
    if (quoted ? bare.trim().length < 4 : !looksObscured(bare)) continue;
    const [start] = match.indices?.groups?.value ?? [0, 0];
    const offset = quoted ? 1 : 0;
    spans.push({ kind: 'password-in-prose', index: start + offset, length: bare.length });
  }
  return spans;
}

/**
 * The kind of credential a JSON field holds when its key names one (`{"db_password": "hunter2x"}`
 * in metadata), judged like a quoted setting; null when the key or the value says it is none.
 */
export function credentialFieldKind(key: string, value: string): SecretKind | null {
  const nameClass = classifyCredentialName(key);
  if (nameClass === null || !acceptsValue(value, true, nameClass, '=', '')) return null;
  return nameClass === 'password' ? 'password-assignment' : 'secret-assignment';
}

function acceptsValue(
  value: string,
  quoted: boolean,
  nameClass: 'password' | 'secret',
  separator: string,
  rest: string,
): boolean {
  if (isNonSecretValue(value)) return false;
  if (nameClass === 'password') {
    if (value.length < (quoted ? 4 : 6)) return false;
  } else if (value.length < 8 || /\s/.test(value)) {
    return false;
  }
  // `password: create the new secret in Vault` is a sentence, `password: hunter2` a setting:
  // a bare value after a colon with more words behind it must look like a generated secret.
  if (!quoted && separator === ':' && /^[ \t]+[A-Za-z]/.test(rest)) return looksObscured(value);
  // Secrets named "token" or "key" are generated strings; a plain word there is a label.
  if (nameClass === 'secret' && !quoted && !looksObscured(value) && value.length < 20) return false;
  return true;
}
