import { isMemoryLayer, type MemoryLayer } from '../../core/domain/layers.ts';
import { anchorSummary } from '../../core/api/anchorsApi.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';

/** The URI scheme of read-only memory documents; a document is rendered fresh from the store each time it opens. */
export const MEMORY_DOCUMENT_SCHEME = 'fml-memory';

/** What a memory document's URI names: the memory, and the layer scope that tells whose partition holds it. */
export interface MemoryDocumentRef {
  memoryId: string;
  layer: MemoryLayer;
  scopeId: string;
}

const TITLE_LENGTH = 60;

/**
 * Path and query of a memory document's URI. The path's last segment is the tab title, so it is
 * the memory's first line (made safe for a file name); the query carries what identifies it.
 */
export function memoryDocumentLocation(memory: Pick<MemoryRecord, 'memory_id' | 'layer' | 'scope_id' | 'content'>): {
  path: string;
  query: string;
} {
  const firstLine =
    memory.content
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? memory.memory_id;
  const title =
    firstLine
      .replace(/[\\/:*?"<>|#%\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, TITLE_LENGTH)
      .trim() || memory.memory_id;
  return {
    path: `/${title}.md`,
    query: new URLSearchParams({ id: memory.memory_id, layer: memory.layer, scope: memory.scope_id }).toString(),
  };
}

/** The reference a memory document's query names, or null when it is not one of ours. */
export function parseMemoryDocumentQuery(query: string): MemoryDocumentRef | null {
  const params = new URLSearchParams(query);
  const memoryId = params.get('id');
  const layer = params.get('layer');
  const scopeId = params.get('scope');
  return memoryId && scopeId && isMemoryLayer(layer) ? { memoryId, layer, scopeId } : null;
}

/** The code the memory is anchored to, with the status the editor last checked. */
function codeLines(memory: MemoryRecord): string[] {
  const summary = anchorSummary(memory.metadata);
  return summary ? [`- code (${summary.status}):`, ...summary.details.split('\n').map((line) => `  - ${line}`)] : [];
}

/** The Markdown a memory document shows: the memory's text, then what it is and where it came from. */
export function memoryDocumentText(memory: MemoryRecord, whyMatched?: string): string {
  return [
    `# ${memory.memory_category}/${memory.memory_subtype}${memory.pinned ? ' (pinned)' : ''}`,
    '',
    memory.content,
    '',
    '---',
    `- id: \`${memory.memory_id}\``,
    `- layer: ${memory.layer}`,
    `- created: ${memory.created_at}; updated: ${memory.updated_at}`,
    `- importance: ${memory.importance}, confidence: ${memory.confidence}, accessed ${memory.access_count} times`,
    ...(memory.entities.length ? [`- entities: ${memory.entities.join(', ')}`] : []),
    ...(memory.tags.length ? [`- tags: ${memory.tags.join(', ')}`] : []),
    ...codeLines(memory),
    ...(whyMatched ? [`- why it matched: ${whyMatched}`] : []),
    '',
    'Read-only: edit, pin or forget this memory in the Memory panel.',
  ].join('\n');
}
