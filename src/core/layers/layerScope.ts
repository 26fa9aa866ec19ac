import { MemoryError } from '../domain/errors.ts';
import {
  type LayerIdentifiers,
  type MemoryLayer,
  requireLayer,
  requireLayerIdentifiers,
  SCOPE_IDENTIFIER,
  SHARED_LAYERS,
} from '../domain/layers.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { ScopeRef } from '../ports/memoryStore.ts';
import { requireId } from '../validation.ts';

/**
 * Where one layer's memories live. Personal layers (agent, user, session) sit in the user's own
 * partition, told apart by layer and scope_id, so forgetting or exporting a user takes all three.
 * Shared layers get a partition of their own (`team:<id>` …) that no user id can name: the store
 * keeps scoping every read and write by partition, and sharing needs no new access path.
 */
export interface LayerScope {
  layer: MemoryLayer;
  /** The store's user_id for this layer's memories. */
  partition: string;
  scope_id: string;
}

export function isSharedLayer(layer: MemoryLayer): boolean {
  return SHARED_LAYERS.includes(layer);
}

/** `team:<id>` and the like; user ids may not start with these (validation.ts). */
export function sharedPartition(layer: MemoryLayer, id: string): string {
  return `${layer}:${id}`;
}

/** The scope of `layer` named by `ids`; MISSING_IDENTIFIER when the layer's identifiers are absent. */
export function scopeFor(layer: MemoryLayer, ids: LayerIdentifiers): LayerScope {
  requireLayerIdentifiers(layer, ids);
  const field = SCOPE_IDENTIFIER[layer];
  const scopeId = requireId(ids[field], field);
  if (isSharedLayer(layer)) return { layer, partition: sharedPartition(layer, scopeId), scope_id: scopeId };
  return { layer, partition: requireId(ids.user_id, 'user_id'), scope_id: scopeId };
}

export function scopeRef(scope: LayerScope): ScopeRef {
  return { layer: scope.layer, scope_id: scope.scope_id };
}

/**
 * The partition a call on one memory id acts in: the user's own unless it names a layer, so
 * agent and session memories need nothing more and shared ones need their layer and identifier.
 */
export function partitionForCall(
  input: { user_id: string; layer?: unknown } & Partial<Record<keyof LayerIdentifiers, unknown>>,
): string {
  const userId = requireId(input.user_id, 'user_id');
  if (input.layer === undefined || input.layer === null) return userId;
  return scopeFor(requireLayer(input.layer), identifiersFrom({ ...input, user_id: userId })).partition;
}

/** Scopes grouped by partition, in the order first seen; one store query serves each group. */
export function groupByPartition(scopes: readonly LayerScope[]): Map<string, LayerScope[]> {
  const groups = new Map<string, LayerScope[]>();
  for (const scope of scopes) {
    const group = groups.get(scope.partition);
    if (group) group.push(scope);
    else groups.set(scope.partition, [scope]);
  }
  return groups;
}

/** The identifiers a memory's layer and partition stand for, as a client passes them back. */
export function identifiersOfMemory(memory: Pick<MemoryRecord, 'layer' | 'scope_id' | 'user_id'>): LayerIdentifiers {
  const field = SCOPE_IDENTIFIER[memory.layer];
  if (isSharedLayer(memory.layer)) return { [field]: memory.scope_id };
  return memory.layer === 'user' ? { user_id: memory.user_id } : { user_id: memory.user_id, [field]: memory.scope_id };
}

/** Identifier fields a tool call may carry, read from loose input without trusting its shape. */
export function identifiersFrom(input: Partial<Record<keyof LayerIdentifiers, unknown>>): LayerIdentifiers {
  const ids: LayerIdentifiers = {};
  for (const field of Object.keys(SCOPE_IDENTIFIER_FIELDS) as (keyof LayerIdentifiers)[]) {
    const value = input[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') {
      throw new MemoryError('INVALID_INPUT', `${field} must be a string.`, { details: { field } });
    }
    ids[field] = requireId(value, field);
  }
  return ids;
}

const SCOPE_IDENTIFIER_FIELDS: Record<keyof LayerIdentifiers, true> = {
  agent_id: true,
  user_id: true,
  session_id: true,
  project_id: true,
  team_id: true,
  org_id: true,
  company_id: true,
};
