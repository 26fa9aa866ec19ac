import { regexMatches } from '../util/regexMatches.ts';
import { isNonSecretValue } from './secretValue.ts';
import type { SecretSpan } from './secretSpan.ts';

/**
 * Credentials with no vendor prefix, recognised by what surrounds them: an AWS secret access key
 * (40 base64 characters near "aws" or "secret key"), an `Authorization: Bearer|Basic` header or
 * `curl -u user:pass`, and the password of a URL (`postgres://user:pw@host`, `redis://:pw@host`).
 * Only the secret part is replaced; the host, header name or user stay readable.
 */

// AWS secret keys are 40 base64 characters; git SHAs (40 hex, lower case) never have upper case.
const AWS_SECRET =
  /(?:aws|amazon|secret[\s_-]?(?:access[\s_-]?)?key)[^\n]{0,80}?(?<![A-Za-z0-9/+=])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi;
const BEARER = /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dgi;
const BASIC = /\bBasic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg;
const CURL_USER = /(?:^|\s)(?:-u|--user)\s+['"]?[^\s:'"]+:(?<secret>[^\s'"]{4,})/dg;
/** scheme://user:password@host, user possibly empty (`redis://:pw@host`). */
// Brackets are not in the user or password (URLs percent-encode them), so `https://[REDACTED:…]@host` is not taken again; the host is only looked at, so the next URL of a list (`…@h1,postgres://u:pw@h2`) is found too.
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:/@'"`[\]]*):(?<secret>[^\s@/'"`[\]]+)@(?=[\w[])/dgi;
/** An .npmrc auth line: `//registry/:_authToken=<token>`, whatever the token's form (npm's own, a UUID, a reference). */
const NPM_AUTH_TOKEN = /(?:^|[\s:])_(?:authToken|auth|password)\s*=\s*["']?(?<secret>[^\s'"]{8,})/dgm;
/** `mysql -p<password>` (and mysqldump, mysqladmin, mariadb): the password glued to `-p`; a bare `-p` prompts. */
const MYSQL_PASSWORD =
  /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b[^\n]*?\s-p(?<secret>[^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")/dg;
/** A .pgpass line, `hostname:port:database:username:password` (port a number or `*`). */
const PGPASS_LINE =
  /^[ \t]*(?<host>[A-Za-z0-9*][A-Za-z0-9.*_-]*):(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?<secret>[^\s]+?)[ \t]*$/dgm;
/** Passwords that documentation writes into example URLs. */
const EXAMPLE_URL_PASSWORD = /^(?:pass|password|pwd|secret|changeme|example|\*+|x+)$/i;

export function findContextualSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of regexMatches(AWS_SECRET, text)) {
    const value = match.groups?.secret ?? '';
    if (/[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9/+]/.test(value))
      spans.push(secretGroup('aws-secret-key', match));
  }
  for (const match of regexMatches(BEARER, text)) {
    const value = match.groups?.secret ?? '';
    // Generated tokens mix letters and digits; "Bearer authorization_uri=…" (a challenge header) does not.
    if ((/\d/.test(value) && /[A-Za-z]/.test(value)) || value.length >= 32)
      spans.push(secretGroup('bearer-token', match));
  }
  for (const match of regexMatches(BASIC, text)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 40), match.index);
    // After a header name the value is a credential whatever it decodes to; after a quote only a
    // value that decodes to `user:password` (RFC 7617) is: `"mode": "Basic fallback"` is a word.
    if (
      /Authorization\s*:\s*$/i.test(before) ||
      (/["']\s*$/.test(before) && decodesToUserPass(match.groups?.secret ?? ''))
    )
      spans.push(secretGroup('basic-auth', match));
  }
  for (const match of regexMatches(CURL_USER, text)) {
    if (!isNonSecretValue(match.groups?.secret ?? '')) spans.push(secretGroup('basic-auth', match));
  }
  for (const match of regexMatches(NPM_AUTH_TOKEN, text)) {
    if (!isNonSecretValue(match.groups?.secret ?? '')) spans.push(secretGroup('npm-token', match));
  }
  for (const match of regexMatches(MYSQL_PASSWORD, text)) {
    const password = (match.groups?.secret ?? '').replace(/^['"]|['"]$/g, '');
    if (!isNonSecretValue(password)) spans.push(secretGroup('password-assignment', match));
  }
  for (const match of regexMatches(PGPASS_LINE, text)) {
    const password = match.groups?.secret ?? '';
    // All digits (`10:30:00:…`, a clock time) or all hex (`fe80:0:0:0:202`, an IPv6 address): not a .pgpass line.
    if (
      /^\d+$/.test(match.groups?.host ?? '') ||
      /^[\s0-9a-f:]+$/i.test(match[0]) ||
      isNonSecretValue(password) ||
      password === '*'
    )
      continue;
    spans.push(secretGroup('password-assignment', match));
  }
  for (const match of regexMatches(URL_CREDENTIALS, text)) {
    const password = match.groups?.secret ?? '';
    if (isNonSecretValue(password) || EXAMPLE_URL_PASSWORD.test(password)) continue;
    spans.push(secretGroup('connection-string-credentials', match));
  }
  return spans;
}

/** Whether base64 `value` (its whole 4-character groups; padding and a cut tail ignored) decodes to text with a colon. */
function decodesToUserPass(value: string): boolean {
  const digits = value.replace(/=+$/, '');
  return atob(digits.slice(0, digits.length - (digits.length % 4))).includes(':');
}

function secretGroup(kind: SecretSpan['kind'], match: RegExpMatchArray): SecretSpan {
  const [start, end] = match.indices?.groups?.secret ?? [match.index ?? 0, (match.index ?? 0) + match[0].length];
  return { kind, index: start, length: end - start };
}
