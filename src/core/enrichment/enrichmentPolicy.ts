import type { MemoryRecord } from '../domain/records.ts';
import { isSensitivePath } from '../editor/pathPrivacy.ts';
import { EXTRACTION_PENDING_TAG } from '../extraction/pendingExtraction.ts';
import { containsSecret } from '../safety/secretDetector.ts';

/**
 * What the user allows to leave the machine for enrichment, beyond the consent that created the
 * enricher at all (the extension builds none with the setting off or in an untrusted workspace).
 */
export interface EnrichmentPolicy {
  /** False for workspace paths the user excluded (files.exclude, the capture exclude setting). Sensitive files are refused regardless. */
  allowsPath?: (path: string) => boolean;
}

export type EnrichmentRefusal =
  /** The content held a credential (now redacted) or still looks like one. */
  | 'secret'
  /** The memory is about a file the user excluded from capture, or a credential file. */
  | 'excluded_file'
  /** Raw working-memory content waiting for extraction; what is extracted from it is enriched instead. */
  | 'extraction_pending';

const REDACTION_MARK = '[REDACTED:';
/** Metadata fields captures use for the file a memory came from. */
const PATH_FIELDS = ['file', 'path', 'file_path', 'uri'] as const;

/** Why this memory must not be sent to a model, or null when it may be. */
export function enrichmentRefusal(
  memory: Pick<MemoryRecord, 'content' | 'entities' | 'tags' | 'metadata'>,
  policy: EnrichmentPolicy = {},
): EnrichmentRefusal | null {
  if (memory.tags.includes(EXTRACTION_PENDING_TAG)) return 'extraction_pending';
  // A redacted secret leaves its shape around it ("password for prod db is [REDACTED:password]"): not sent either.
  if (memory.content.includes(REDACTION_MARK) || containsSecret(memory.content)) return 'secret';
  for (const path of pathsOf(memory)) {
    if (isSensitivePath(path) || (policy.allowsPath && !policy.allowsPath(path))) return 'excluded_file';
  }
  return null;
}

function pathsOf(memory: Pick<MemoryRecord, 'entities' | 'metadata'>): string[] {
  const paths = memory.entities
    .filter((entity) => entity.startsWith('file:'))
    .map((entity) => entity.slice('file:'.length));
  for (const field of PATH_FIELDS) {
    const value = memory.metadata[field];
    if (typeof value === 'string' && value.trim() !== '') paths.push(value.replace(/^file:\/\//, ''));
  }
  return paths;
}
