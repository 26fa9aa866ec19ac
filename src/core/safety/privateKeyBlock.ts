import { regexMatches } from '../util/regexMatches.ts';
import type { SecretSpan } from './secretSpan.ts';

/**
 * A private key is the whole armoured block, not its first line: PKCS#1 (`RSA PRIVATE KEY`),
 * PKCS#8 (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`), SEC1 (`EC PRIVATE KEY`), `OPENSSH PRIVATE KEY`,
 * `PGP PRIVATE KEY BLOCK`, and PuTTY `.ppk` files; with LF or CRLF line ends, or inside a JSON
 * string where the line ends are `\n` escapes (service-account files). Certificates and public
 * keys are not matched: they are meant to be shared.
 */

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/g;
/** The longest armoured key we expect (a PGP key with subkeys); beyond it an unterminated block stops. */
const MAX_BLOCK = 64 * 1024;
/**
 * A block cut off before its END line (a truncated paste): the body continues while lines are
 * base64 or armour headers (`Proc-Type:`, `Version:`), separated by real or escaped line ends.
 */
const UNTERMINATED_BODY =
  /^(?:(?:\r?\n|\\r\\n|\\n|[ \t]+)(?:[A-Za-z0-9+/=]{16,}|[A-Za-z0-9+/=]*(?=\r?\n|\\r\\n|\\n|$)|[A-Z][A-Za-z-]+: [^\r\n\\]*))*/;
const PUTTY = /PuTTY-User-Key-File-\d+: [\s\S]{0,16384}?Private-MAC: [0-9a-fA-F]+/g;

export function findPrivateKeyBlocks(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  let searchFrom = 0;
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin !== null; begin = BEGIN.exec(text)) {
    if (begin.index < searchFrom) continue;
    const end = `-----END ${begin[1]}PRIVATE KEY${begin[2] ?? ''}-----`;
    const bodyStart = begin.index + begin[0].length;
    const endAt = text.indexOf(end, bodyStart);
    const length =
      endAt !== -1 && endAt - bodyStart <= MAX_BLOCK
        ? endAt + end.length - begin.index
        : begin[0].length + unterminatedBodyLength(text.slice(bodyStart, bodyStart + MAX_BLOCK));
    spans.push({ kind: 'private-key-block', index: begin.index, length });
    searchFrom = begin.index + length;
    BEGIN.lastIndex = searchFrom;
  }
  for (const match of regexMatches(PUTTY, text))
    spans.push({ kind: 'private-key-block', index: match.index ?? 0, length: match[0].length });
  return spans;
}

/** The body of a cut-off block, without the blank lines after it (they belong to the text that follows). */
function unterminatedBodyLength(rest: string): number {
  const body = UNTERMINATED_BODY.exec(rest)?.[0] ?? '';
  return body.replace(/(?:\r?\n|\\r\\n|\\n|[ \t])+$/, '').length;
}
