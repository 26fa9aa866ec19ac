import { MemoryError } from '../core/domain/errors.ts';
import { isSharedLayer, sharedPartition } from '../core/api/layerPartitions.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { resolvedIdentifiers } from './callerIdentifiers.ts';
import { type KnowledgeEntry, toKnowledgeEntry } from './knowledgeEntry.ts';
import {
  optionalNumber,
  optionalObject,
  optionalString,
  optionalStringList,
  readIdentifiers,
  requireObject,
} from './openSpecRequest.ts';

/** Seed 001 Search Memory over the same recall as the MCP tools, with its metadata filter. */

export interface QueryResult {
  results: Array<{ memory: KnowledgeEntry; score: number; layer: KnowledgeEntry['layer'] }>;
  totalCount: number;
  searchedLayers: string[];
}

const DEFAULT_QUERY_LIMIT = 10;
const MAX_QUERY_LIMIT = 100;

/** Seed 001 Search Memory: recall across the layers the identifiers open, then the metadata filter. */
export async function queryEntries(context: ServerContext, body: unknown): Promise<QueryResult> {
  const input = requireObject(body, 'body');
  const query = optionalString(input.query, 'query');
  if (query === undefined)
    throw new MemoryError('INVALID_INPUT', 'query is required.', { details: { field: 'query' } });
  const ids = resolvedIdentifiers(context, readIdentifiers(input.identifiers));
  const limit = optionalNumber(input.limit, 'limit') ?? DEFAULT_QUERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new MemoryError('INVALID_INPUT', `limit must be an integer from 1 to ${MAX_QUERY_LIMIT}.`, {
      details: { field: 'limit' },
    });
  }
  const threshold = optionalNumber(input.threshold, 'threshold');
  const layers = input.layers === undefined ? undefined : optionalStringList(input.layers, 'layers');
  const filter = metadataFilter(optionalObject(input.filter, 'filter'));
  const recalled = await context.core.recall({
    ...ids,
    user_id: ids.user_id as string,
    query,
    // The metadata filter runs after recall, so recall returns more to leave `limit` after it.
    limit: filter.applies ? MAX_QUERY_LIMIT : limit,
    ...(threshold !== undefined ? { min_similarity: threshold } : {}),
    ...(layers ? { layers } : {}),
    ...(filter.tags ? { tags: filter.tags } : {}),
  });
  const byPartition = new Map<string, string[]>();
  for (const hit of recalled.memories) {
    const partition = isSharedLayer(hit.layer) ? sharedPartition(hit.layer, hit.scope_id) : (ids.user_id as string);
    byPartition.set(partition, [...(byPartition.get(partition) ?? []), hit.memory_id]);
  }
  const records = new Map<string, MemoryRecord>();
  for (const [partition, memoryIds] of byPartition)
    for (const record of await context.core.getMemories(partition, memoryIds)) records.set(record.memory_id, record);
  const matching = recalled.memories
    .map((hit) => ({ hit, record: records.get(hit.memory_id) }))
    .filter(
      (pair): pair is { hit: (typeof recalled.memories)[number]; record: MemoryRecord } =>
        pair.record !== undefined && filter.accepts(pair.record),
    );
  return {
    results: matching.slice(0, limit).map(({ hit, record }) => ({
      memory: toKnowledgeEntry(record),
      score: hit.relevance_score,
      layer: record.layer,
    })),
    totalCount: matching.length,
    searchedLayers: recalled.retrieval_breakdown.searched_layers,
  };
}

interface MetadataFilter {
  applies: boolean;
  tags?: string[];
  accepts(memory: MemoryRecord): boolean;
}

/** Seed 001 MetadataFilter: tags (any of), sourceType, hasKnowledgePointer, custom (equal values). */
function metadataFilter(filter: Record<string, unknown> | undefined): MetadataFilter {
  if (!filter) return { applies: false, accepts: () => true };
  const tags = optionalStringList(filter.tags, 'filter.tags');
  const sourceType = optionalString(filter.sourceType, 'filter.sourceType');
  const pointer = filter.hasKnowledgePointer;
  if (pointer !== undefined && typeof pointer !== 'boolean')
    throw new MemoryError('INVALID_INPUT', 'filter.hasKnowledgePointer must be a boolean.', {
      details: { field: 'filter.hasKnowledgePointer' },
    });
  const custom = optionalObject(filter.custom, 'filter.custom') ?? {};
  return {
    applies: sourceType !== undefined || pointer !== undefined || Object.keys(custom).length > 0,
    ...(tags ? { tags } : {}),
    accepts: (memory) => {
      const source = memory.metadata.source as { type?: unknown } | undefined;
      if (sourceType !== undefined && source?.type !== sourceType) return false;
      if (pointer !== undefined && (memory.metadata.knowledgePointer !== undefined) !== pointer) return false;
      return Object.entries(custom).every(
        ([key, value]) => JSON.stringify(memory.metadata[key]) === JSON.stringify(value),
      );
    },
  };
}
