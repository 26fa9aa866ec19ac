import { findContextualSecrets } from './contextualSecrets.ts';
import { detectionText } from './detectionText.ts';
import { findCredentialAssignments } from './credentialAssignment.ts';
import { rulesThatMayMatch } from './prefixedTokenRules.ts';
import { findPrivateKeyBlocks } from './privateKeyBlock.ts';
import { replaceSpans } from './replaceSpans.ts';
import { regexMatches } from '../util/regexMatches.ts';
import type { SecretKind } from './secretKinds.ts';
import type { SecretSpan } from './secretSpan.ts';

/**
 * Finds credentials in text before it is captured into memory. Pure and IDE-independent: the
 * editor capture, the MCP tools and the CLI can all ask it. It prefers false positives to
 * leaks: a memory that is not captured costs little, a key copied into a shared store costs a lot.
 * Findings come most specific first: a private key block, a vendor-prefixed token, a credential
 * recognised by its surroundings, then a value assigned to a credential-like name.
 */

export type { SecretKind } from './secretKinds.ts';
export { SECRET_KINDS } from './secretKinds.ts';

export type SecretFinding = SecretSpan;

export function findSecrets(original: string): SecretFinding[] {
  const detection = detectionText(original);
  const text = detection.text;
  const findings: SecretFinding[] = [...findPrivateKeyBlocks(text)];
  for (const rule of rulesThatMayMatch(text))
    for (const match of regexMatches(rule.pattern, text)) findings.push(spanOf(rule.kind, match));
  findings.push(...findContextualSecrets(text), ...findCredentialAssignments(text));
  if (text !== original)
    for (const finding of findings) Object.assign(finding, detection.toOriginal(finding.index, finding.length));
  // Stable sort: at one position the longest finding, then the more specific rule (earlier above), comes first.
  return findings.sort((a, b) => a.index - b.index || b.length - a.length);
}

export function containsSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/** Replaces every finding with `[REDACTED:<kind>]`, for logs and previews that must show the rest. */
export function redactSecrets(text: string): string {
  return replaceSpans(text, findSecrets(text)).content;
}

function spanOf(kind: SecretKind, match: RegExpMatchArray): SecretSpan {
  const group = match.indices?.groups?.secret;
  if (group) return { kind, index: group[0], length: group[1] - group[0] };
  return { kind, index: match.index ?? 0, length: match[0].length };
}
