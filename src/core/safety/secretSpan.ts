import type { SecretKind } from './secretKinds.ts';

/** Where a credential sits in a text: the characters to replace, never the characters themselves. */
export interface SecretSpan {
  kind: SecretKind;
  index: number;
  length: number;
}
