import type { LayerIdentifiers, MemoryLayer } from '../core/domain/layers.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import { identifiersOfMemory } from '../core/api/layerPartitions.ts';

/** Seed 001 LayerIdentifiers, in the camelCase of the OpenSpec wire format. */
export interface WireIdentifiers {
  agentId?: string;
  userId?: string;
  sessionId?: string;
  projectId?: string;
  teamId?: string;
  orgId?: string;
  companyId?: string;
}

/** Seed 001 MemoryEntry (without `embedding`: vectors stay in the store, the metadata route says whether one exists). */
export interface KnowledgeEntry {
  id: string;
  content: string;
  layer: MemoryLayer;
  identifiers: WireIdentifiers;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** Wire name ↔ core name of each identifier; one table so the two directions cannot drift apart. */
export const IDENTIFIER_NAMES: ReadonlyArray<readonly [keyof WireIdentifiers, keyof LayerIdentifiers]> = [
  ['agentId', 'agent_id'],
  ['userId', 'user_id'],
  ['sessionId', 'session_id'],
  ['projectId', 'project_id'],
  ['teamId', 'team_id'],
  ['orgId', 'org_id'],
  ['companyId', 'company_id'],
];

export function toWireIdentifiers(ids: LayerIdentifiers): WireIdentifiers {
  const wire: WireIdentifiers = {};
  for (const [wireName, coreName] of IDENTIFIER_NAMES) if (ids[coreName] !== undefined) wire[wireName] = ids[coreName];
  return wire;
}

/**
 * A stored memory as an OpenSpec entry. The memory's own classification and scores travel in
 * metadata next to the caller's custom fields, so a client can send them back on update.
 */
export function toKnowledgeEntry(memory: MemoryRecord): KnowledgeEntry {
  return {
    id: memory.memory_id,
    content: memory.content,
    layer: memory.layer,
    identifiers: toWireIdentifiers(identifiersOfMemory(memory)),
    metadata: {
      ...memory.metadata,
      tags: memory.tags,
      memory_category: memory.memory_category,
      memory_subtype: memory.memory_subtype,
      importance: memory.importance,
      confidence: memory.confidence,
      entities: memory.entities,
      decayFactor: memory.decay_factor,
    },
    createdAt: memory.created_at,
    updatedAt: memory.updated_at,
  };
}
