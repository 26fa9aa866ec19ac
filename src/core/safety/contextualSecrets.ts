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
// Brackets are not in the user or password (URLs percent-encode them), so `https://[REDACTED:…]@host` is not taken again.
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:/@'"`[\]]*):(?<secret>[^\s@/'"`[\]]+)@[^\s'"`]+/dgi;
/** Passwords that documentation writes into example URLs. */
const EXAMPLE_URL_PASSWORD = /^(?:pass|password|pwd|secret|changeme|example|\*+|x+)$/i;

export function findContextualSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(AWS_SECRET)) {
    const value = match.groups?.secret ?? '';
    if (/[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9/+]/.test(value))
      spans.push(secretGroup('aws-secret-key', match));
  }
  for (const match of text.matchAll(BEARER)) {
    const value = match.groups?.secret ?? '';
    // Generated tokens mix letters and digits; "Bearer authorization_uri=…" (a challenge header) does not.
    if ((/\d/.test(value) && /[A-Za-z]/.test(value)) || value.length >= 32)
      spans.push(secretGroup('bearer-token', match));
  }
  for (const match of text.matchAll(BASIC)) {
    if (/Authorization\s*:\s*$|["']\s*$/i.test(text.slice(Math.max(0, (match.index ?? 0) - 40), match.index)))
      spans.push(secretGroup('basic-auth', match));
  }
  for (const match of text.matchAll(CURL_USER)) {
    if (!isNonSecretValue(match.groups?.secret ?? '')) spans.push(secretGroup('basic-auth', match));
  }
  for (const match of text.matchAll(URL_CREDENTIALS)) {
    const password = match.groups?.secret ?? '';
    if (isNonSecretValue(password) || EXAMPLE_URL_PASSWORD.test(password)) continue;
    spans.push(secretGroup('connection-string-credentials', match));
  }
  return spans;
}

function secretGroup(kind: SecretSpan['kind'], match: RegExpMatchArray): SecretSpan {
  const [start, end] = match.indices?.groups?.secret ?? [match.index ?? 0, (match.index ?? 0) + match[0].length];
  return { kind, index: start, length: end - start };
}
