/**
 * Finds credentials in text before it is captured into memory. Pure and IDE-independent: the
 * editor capture, the MCP tools and the CLI can all ask it. It prefers false positives to
 * leaks: a memory that is not captured costs little, a key copied into a shared store costs a lot.
 */

export type SecretKind =
  | 'openai-key'
  | 'github-token'
  | 'aws-access-key'
  | 'slack-token'
  | 'google-api-key'
  | 'stripe-live-key'
  | 'jwt'
  | 'private-key-block'
  | 'password-assignment'
  | 'connection-string-credentials';

export interface SecretFinding {
  kind: SecretKind;
  /** Offset of the match in the scanned text; the secret itself is never returned. */
  index: number;
  length: number;
}

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
}

// Each pattern anchors on a vendor prefix or a structural marker, so ordinary code rarely matches.
const RULES: readonly Rule[] = [
  { kind: 'private-key-block', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b/g },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'stripe-live-key', pattern: /\b(?:sk|rk)_live_[0-9A-Za-z]{16,}/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: 'connection-string-credentials',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`]+:[^\s@/'"`]+@[^\s'"`]+/gi,
  },
  {
    // password = "x", PASSWORD: x, db_password=..., secret_key: ..., but not `password = input()` style
    // reads with no literal: the value must be a quoted string or a bare token of 6+ characters
    // that is not a function call.
    kind: 'password-assignment',
    pattern:
      /\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\b\s*[:=]\s*(?:"[^"\s]{4,}"|'[^'\s]{4,}'|[^\s'"`,;(){}[\]]{6,}(?![(\w]))/gi,
  },
];

/** Values that are obviously not secrets even though they sit after `password=`. */
const PLACEHOLDER = /^["']?(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|x{4,}|\*{4,}|process\.env\.[A-Za-z_]+|os\.environ.*|changeme|password|secret|null|none|undefined|true|false)["']?$/i;

export function findSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      if (rule.kind === 'password-assignment' && isPlaceholderAssignment(match[0])) continue;
      if (rule.kind === 'connection-string-credentials' && isPlaceholderUrl(match[0])) continue;
      findings.push({ kind: rule.kind, index: match.index ?? 0, length: match[0].length });
    }
  }
  return findings.sort((a, b) => a.index - b.index);
}

export function containsSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/** Replaces every finding with `[REDACTED:<kind>]`, for logs and previews that must show the rest. */
export function redactSecrets(text: string): string {
  let result = '';
  let cursor = 0;
  for (const finding of findSecrets(text)) {
    if (finding.index < cursor) continue;
    result += text.slice(cursor, finding.index) + `[REDACTED:${finding.kind}]`;
    cursor = finding.index + finding.length;
  }
  return result + text.slice(cursor);
}

function isPlaceholderAssignment(assignment: string): boolean {
  const value = assignment.replace(/^[^:=]*[:=]\s*/, '');
  return PLACEHOLDER.test(value);
}

function isPlaceholderUrl(url: string): boolean {
  const credentials = /:\/\/([^:]+):([^@]+)@/.exec(url);
  if (!credentials) return true;
  return PLACEHOLDER.test(credentials[2]) || PLACEHOLDER.test(credentials[1]) && credentials[2].startsWith('$');
}
