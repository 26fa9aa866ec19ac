import { regexMatches } from '../util/regexMatches.ts';
import { MemoryError } from '../domain/errors.ts';
import { type LabelledSpan, replaceSpans } from './replaceSpans.ts';
import { credentialFieldKind } from './credentialAssignment.ts';
import { findSecrets } from './secretDetector.ts';

/**
 * The gate every piece of content passes before it is stored (seed 000 §10): credentials are
 * redacted or refused, and, when asked, e-mail addresses and phone numbers are redacted. Pure:
 * the same text and policy always give the same result, so callers can report what changed.
 */

export type SecretPolicy = 'redact' | 'refuse';

export interface GuardPolicy {
  secretPolicy: SecretPolicy;
  piiRedaction: boolean;
}

export interface Redaction {
  /** A SecretKind of the detector, or 'email' / 'phone' for PII. */
  kind: string;
  count: number;
}

export interface GuardedText {
  content: string;
  redactions: Redaction[];
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// International or North-American shapes with separators; bare digit runs (ids, ports, hashes) are left alone.
const PHONE = /(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\d{2,4}[\s.-])\d{3,4}[\s.-]\d{3,4}(?![\w])/g;

function refusal(field: string, kinds: readonly string[]): MemoryError {
  return new MemoryError(
    'INVALID_INPUT',
    `${field} contains what looks like a credential (${kinds.join(', ')}); it was not stored. Remove the secret or reference it by name (e.g. "the DB password in the vault").`,
    { details: { field, secret_kinds: [...kinds] } },
  );
}

/** Redacts or refuses one text; `field` names it in the refusal message. */
export function guardText(text: string, policy: GuardPolicy, field = 'content'): GuardedText {
  const secrets = findSecrets(text);
  if (secrets.length > 0 && policy.secretPolicy === 'refuse')
    throw refusal(field, [...new Set(secrets.map((finding) => finding.kind))]);
  const spans: LabelledSpan[] = [...secrets];
  if (policy.piiRedaction) {
    for (const match of regexMatches(EMAIL, text))
      spans.push({ kind: 'email', index: match.index ?? 0, length: match[0].length });
    for (const match of regexMatches(PHONE, text))
      spans.push({ kind: 'phone', index: match.index ?? 0, length: match[0].length });
  }
  if (spans.length === 0) return { content: text, redactions: [] };
  // Overlapping findings (a password inside a connection string) are one redaction.
  const { content, counts } = replaceSpans(text, spans);
  return { content, redactions: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/**
 * Guards a value kept under a name (a metadata field, a fact): the name is the context a bare value
 * lacks, so {"db_password": "hunter2x"} is redacted or refused like DB_PASSWORD=hunter2x.
 */
export function guardNamedText(name: string, text: string, policy: GuardPolicy, field: string): GuardedText {
  const guarded = guardText(text, policy, field);
  const kind = credentialFieldKind(name, guarded.content);
  if (kind === null) return guarded;
  if (policy.secretPolicy === 'refuse') throw refusal(field, [kind]);
  return { content: `[REDACTED:${kind}]`, redactions: mergeRedactions(guarded.redactions, [{ kind, count: 1 }]) };
}

/** Guards every string inside a JSON value (metadata), so a secret cannot ride along beside the content. */
export function guardJson<T>(value: T, policy: GuardPolicy, field = 'metadata'): { value: T; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') {
      const guarded = guardText(node, policy, path);
      redactions.push(...guarded.redactions);
      return guarded.content;
    }
    if (Array.isArray(node)) return node.map((entry, index) => walk(entry, `${path}[${index}]`));
    if (node !== null && typeof node === 'object') {
      // A key is text too: a credential pasted as a key must not ride along either.
      return Object.fromEntries(
        Object.entries(node as Record<string, unknown>).map(([key, entry]) => {
          const guardedKey = guardText(key, policy, `${path} key`);
          redactions.push(...guardedKey.redactions);
          const entryPath = `${path}.${guardedKey.content}`;
          if (typeof entry !== 'string') return [guardedKey.content, walk(entry, entryPath)];
          const guardedEntry = guardNamedText(key, entry, policy, entryPath);
          redactions.push(...guardedEntry.redactions);
          return [guardedKey.content, guardedEntry.content];
        }),
      );
    }
    return node;
  };
  const guarded = walk(value, field) as T;
  return { value: guarded, redactions: mergeRedactions(redactions) };
}

export function mergeRedactions(...lists: ReadonlyArray<readonly Redaction[]>): Redaction[] {
  const counts = new Map<string, number>();
  for (const list of lists)
    for (const entry of list) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + entry.count);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}
