import { MemoryError } from '../core/domain/errors.ts';
import { partitionForCall } from '../core/api/layerPartitions.ts';
import { requireLayer, type LayerIdentifiers } from '../core/domain/layers.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import { assertValidClassification, isMemoryCategory, type MemoryCategory } from '../core/domain/taxonomy.ts';
import { classifyContent } from '../core/api/textApi.ts';
import { requireId } from '../core/validation.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { type KnowledgeEntry, toKnowledgeEntry, type WireIdentifiers } from './knowledgeEntry.ts';
import { resolvedIdentifiers } from './callerIdentifiers.ts';
import {
  optionalNumber,
  optionalObject,
  optionalString,
  optionalStringList,
  readIdentifiers,
  requireObject,
} from './openSpecRequest.ts';

/**
 * The OpenSpec knowledge operations (seed 001 Core Operations) over the same core calls as the
 * MCP tools: user and layer identifiers resolved and authorised by the very functions the tools
 * use (CallerAccess), content guarded, deduplicated and checked for
 * contradictions by LongTermMemory, so nothing reachable here is unreachable or looser there.
 */

/** Metadata keys that are fields of the memory itself, not custom metadata. */
const RECORD_FIELDS = [
  'tags',
  'memory_category',
  'memory_subtype',
  'importance',
  'confidence',
  'entities',
  'decayFactor',
] as const;
/** Knowledge entries that match no classification rule are project knowledge, not conversation. */
const UNCLASSIFIED = { category: 'semantic', subtype: 'project' } as const;

/** Where one entry lives: its layer and identifiers, from a body or from query parameters. */
export interface EntryLocation {
  layer?: string;
  identifiers: LayerIdentifiers;
}

export async function createEntry(
  context: ServerContext,
  body: unknown,
): Promise<{ memory: KnowledgeEntry; embeddingGenerated: boolean }> {
  const input = requireObject(body, 'body');
  const content = optionalString(input.content, 'content');
  if (content === undefined)
    throw new MemoryError('INVALID_INPUT', 'content is required.', { details: { field: 'content' } });
  const layer = requireLayer(input.layer ?? 'user');
  const ids = resolvedIdentifiers(context, readIdentifiers(input.identifiers));
  const metadata = optionalObject(input.metadata, 'metadata') ?? {};
  const { category, subtype } = classificationOf(metadata, content);
  const stored = await context.core.storeMemory({
    ...ids,
    user_id: ids.user_id as string,
    layer,
    content,
    memory_category: category,
    memory_subtype: subtype,
    ...numbersOf(metadata),
    ...(optionalStringList(metadata.entities, 'metadata.entities') ? { entities: metadata.entities as string[] } : {}),
    metadata: customMetadata(metadata),
    source_type: 'explicit',
  });
  const memory = await requireRecord(context, partitionOf(layer, ids), stored.memory_id);
  return { memory: toKnowledgeEntry(memory), embeddingGenerated: stored.embedding_status === 'embedded' };
}

export async function updateEntry(
  context: ServerContext,
  id: string,
  body: unknown,
  location: EntryLocation,
): Promise<{ memory: KnowledgeEntry; embeddingRegenerated: boolean }> {
  const input = requireObject(body, 'body');
  const where = locate(context, location, input);
  const metadata = optionalObject(input.metadata, 'metadata');
  const content = optionalString(input.content, 'content');
  const category = metadata ? optionalString(metadata.memory_category, 'metadata.memory_category') : undefined;
  const subtype = metadata ? optionalString(metadata.memory_subtype, 'metadata.memory_subtype') : undefined;
  const updated = await context.core.updateMemory({
    ...where.ids,
    ...(where.layer ? { layer: where.layer } : {}),
    user_id: where.userId,
    memory_id: requireId(id, 'id'),
    ...(content !== undefined ? { content } : {}),
    ...(metadata ? { metadata: customMetadata(metadata), ...numbersOf(metadata) } : {}),
    ...(metadata && optionalStringList(metadata.tags, 'metadata.tags') ? { tags: metadata.tags as string[] } : {}),
    ...(category !== undefined
      ? { memory_category: requireCategory(category), ...(subtype !== undefined ? { memory_subtype: subtype } : {}) }
      : {}),
  });
  return { memory: toKnowledgeEntry(updated.memory), embeddingRegenerated: updated.re_embedded };
}

export async function deleteEntry(
  context: ServerContext,
  id: string,
  location: EntryLocation,
): Promise<{ success: boolean }> {
  const where = locate(context, location, {});
  // Soft delete, as forget_memory without hard_delete: the entry stays restorable from the panel's trash.
  const result = await context.core.forgetMemory({
    ...where.ids,
    ...(where.layer ? { layer: where.layer } : {}),
    user_id: where.userId,
    memory_id: requireId(id, 'id'),
  });
  return { success: result.success };
}

export interface EntryMetadata {
  id: string;
  layer: KnowledgeEntry['layer'];
  identifiers: WireIdentifiers;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastAccessedAt: string;
  accessCount: number;
  pinned: boolean;
  state: 'active' | 'superseded' | 'deleted';
  supersedes: string | null;
  supersededBy: string | null;
  embedding: { generated: boolean; model: string | null };
}

export async function entryMetadata(
  context: ServerContext,
  id: string,
  location: EntryLocation,
): Promise<EntryMetadata> {
  const where = locate(context, location, {});
  const partition = partitionForCall({ ...where.ids, user_id: where.userId, layer: where.layer });
  const memory = await requireRecord(context, partition, requireId(id, 'id'));
  const entry = toKnowledgeEntry(memory);
  return {
    id: entry.id,
    layer: entry.layer,
    identifiers: entry.identifiers,
    metadata: entry.metadata,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    lastAccessedAt: memory.last_accessed,
    accessCount: memory.access_count,
    pinned: memory.pinned,
    state: memory.deleted_at ? 'deleted' : memory.superseded_by ? 'superseded' : 'active',
    supersedes: memory.supersedes,
    supersededBy: memory.superseded_by,
    embedding: { generated: memory.embedding_model !== null, model: memory.embedding_model },
  };
}

function locate(
  context: ServerContext,
  location: EntryLocation,
  body: Record<string, unknown>,
): { userId: string; layer?: string; ids: LayerIdentifiers } {
  const bodyIds = body.identifiers === undefined ? {} : readIdentifiers(body.identifiers);
  const layer = optionalString(body.layer, 'layer') ?? location.layer;
  const ids = resolvedIdentifiers(context, { ...location.identifiers, ...bodyIds });
  return { userId: ids.user_id as string, ...(layer !== undefined ? { layer } : {}), ids };
}

function partitionOf(layer: ReturnType<typeof requireLayer>, ids: LayerIdentifiers): string {
  return partitionForCall({ ...ids, user_id: ids.user_id as string, layer });
}

async function requireRecord(context: ServerContext, partition: string, id: string): Promise<MemoryRecord> {
  const [memory] = await context.core.getMemories(partition, [id]);
  if (!memory)
    throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${id} exists in this layer for this user.`, {
      details: { memory_id: id },
    });
  return memory;
}

function classificationOf(
  metadata: Record<string, unknown>,
  content: string,
): { category: MemoryCategory; subtype: string } {
  const category = optionalString(metadata.memory_category, 'metadata.memory_category');
  const subtype = optionalString(metadata.memory_subtype, 'metadata.memory_subtype');
  if (category !== undefined && subtype !== undefined) {
    assertValidClassification(category, subtype);
    return { category: category as MemoryCategory, subtype };
  }
  if (category !== undefined || subtype !== undefined) {
    throw new MemoryError(
      'INVALID_INPUT',
      'metadata.memory_category and metadata.memory_subtype go together: pass both, or neither to classify the content.',
      {
        details: { field: category === undefined ? 'metadata.memory_category' : 'metadata.memory_subtype' },
      },
    );
  }
  const classified = classifyContent(content, UNCLASSIFIED);
  return { category: classified.memory_category, subtype: classified.memory_subtype };
}

function requireCategory(category: string): MemoryCategory {
  if (!isMemoryCategory(category)) assertValidClassification(category, '');
  return category as MemoryCategory;
}

function numbersOf(metadata: Record<string, unknown>): { importance?: number; confidence?: number } {
  const importance = optionalNumber(metadata.importance, 'metadata.importance');
  const confidence = optionalNumber(metadata.confidence, 'metadata.confidence');
  return { ...(importance !== undefined ? { importance } : {}), ...(confidence !== undefined ? { confidence } : {}) };
}

/** The caller's own metadata (source, knowledgePointer, custom keys) plus tags, which the core reads from metadata.tags. */
function customMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata))
    if (!(RECORD_FIELDS as readonly string[]).includes(key)) custom[key] = value;
  if (metadata.tags !== undefined) custom.tags = optionalStringList(metadata.tags, 'metadata.tags');
  return custom;
}
