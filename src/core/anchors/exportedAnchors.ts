import type { MemoryRecord } from '../domain/records.ts';
import { ANCHORS_FIELD } from './anchorModel.ts';
import { SKETCH_VERSION } from './codeFingerprint.ts';

/**
 * A memory as an export carries it: a version-1 anchor sketch hashed every token one by one,
 * literals included, so a password in anchored code could be guessed offline from the file (issue
 * #28 point 6). Such sketches leave as an empty list; the fingerprint stays, so an imported anchor
 * is still compared (codeFingerprint.ts compareTokens). Current sketches hold no literals and go as they are.
 */
export function withExportableAnchors<T extends Pick<MemoryRecord, 'metadata'>>(memory: T): T {
  const anchors = memory.metadata?.[ANCHORS_FIELD];
  if (!Array.isArray(anchors) || !anchors.some(holdsLiteralHashes)) return memory;
  return {
    ...memory,
    metadata: {
      ...memory.metadata,
      [ANCHORS_FIELD]: anchors.map((anchor: unknown) =>
        holdsLiteralHashes(anchor) ? { ...(anchor as Record<string, unknown>), tokens: [] } : anchor,
      ),
    },
  };
}

function holdsLiteralHashes(anchor: unknown): boolean {
  if (typeof anchor !== 'object' || anchor === null) return false;
  const fields = anchor as Record<string, unknown>;
  return fields.sketch !== SKETCH_VERSION && Array.isArray(fields.tokens) && fields.tokens.length > 0;
}
