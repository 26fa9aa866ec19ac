import { MemoryError } from './errors.ts';
import type { MemoryRecord, StoredEmbedding } from './records.ts';

/** Fields a change may set outright; identity, creation and access bookkeeping are not among them. */
export type SettableMemoryFields = Partial<
  Pick<
    MemoryRecord,
    | 'memory_category'
    | 'memory_subtype'
    | 'summary'
    | 'entities'
    | 'tags'
    | 'event_time'
    | 'is_temporal'
    | 'importance'
    | 'decay_factor'
    | 'related_memories'
    | 'supersedes'
    | 'superseded_by'
    | 'confidence'
    | 'pinned'
    | 'org_id'
    | 'project_id'
    | 'source_type'
  >
>;

/**
 * What one change does to one memory, said as intent rather than as a whole new row, so that the
 * store applies it to the row as it is when the write happens: two changes of different keys or
 * fields made at the same moment both stay. Every part is optional; the parts apply in the order
 * listed.
 */
export interface MemoryChange {
  set?: SettableMemoryFields;
  /** Top-level metadata keys written over the stored ones; other keys stay. */
  merge_metadata?: Record<string, unknown>;
  /** Top-level metadata keys removed. */
  remove_metadata?: readonly string[];
  /** Added when absent (exact match); existing ones keep their order. */
  add_tags?: readonly string[];
  add_entities?: readonly string[];
  add_related?: readonly string[];
  /** Confidence becomes at most this (a superseded memory is trusted less, never more). */
  cap_confidence?: number;
  /** New text; the one change after which the text is analysed again. */
  content?: string;
  /** undefined keeps the stored vector, null removes it. */
  embedding?: StoredEmbedding | null;
  /**
   * Access bookkeeping set to exactly these values: only for copying a store, where the copied
   * access log inflated the counts. Alone, it is not a change of the memory (version stays).
   */
  access?: { count: number; last_accessed: string };
}

/** A change addressed to one memory, with the rules it is applied under. */
export interface ChangeRequest {
  user_id: string;
  memory_id: string;
  change: MemoryChange;
  /** The change's time, which becomes updated_at; null for bookkeeping (decay), which leaves it. */
  at: string | null;
  /** The version the caller's decision was based on; another version makes the change a CONFLICT. */
  expected_version?: number;
  /**
   * What a forgotten (or erased) memory does to the change: 'reject' answers MEMORY_NOT_FOUND (a
   * user's edit), 'drop' discards it quietly (a background writer whose work is no longer wanted).
   * 'apply' is for copying a store only: the copy's bookkeeping follows the source's, forgotten or
   * not (deleted_at itself is never changed here).
   */
  if_forgotten: 'reject' | 'drop' | 'apply';
}

export type ChangeOutcome =
  { status: 'applied'; memory: MemoryRecord } | { status: 'dropped'; reason: 'forgotten' | 'missing' };

/** The result of forgetting or restoring many memories in one write. */
export interface ForgetOutcome {
  /** Ids whose state this call changed. */
  changed: string[];
  /** Ids that were already in the requested state. */
  unchanged: string[];
  /** Ids this user has no memory with (erased, another user's, never existed). */
  missing: string[];
}

function withAdded(list: readonly string[], added: readonly string[] | undefined): string[] {
  const next = [...list];
  const seen = new Set(list);
  for (const value of added ?? []) {
    if (seen.has(value)) continue;
    seen.add(value);
    next.push(value);
  }
  return next;
}

function withMetadata(
  metadata: Record<string, unknown>,
  merge: Record<string, unknown> | undefined,
  remove: readonly string[] | undefined,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...metadata, ...merge };
  for (const key of remove ?? []) delete next[key];
  return next;
}

function isBookkeepingOnly(change: MemoryChange): boolean {
  return Object.entries(change).every(([part, value]) => part === 'access' || value === undefined);
}

/** True when a change alters what the text index holds (content, tags, entities or search keys in metadata). */
export function changesIndexedText(change: MemoryChange): boolean {
  return (
    change.content !== undefined ||
    change.set?.tags !== undefined ||
    change.set?.entities !== undefined ||
    (change.add_tags?.length ?? 0) > 0 ||
    (change.add_entities?.length ?? 0) > 0 ||
    change.merge_metadata !== undefined ||
    (change.remove_metadata?.length ?? 0) > 0
  );
}

/**
 * The row after `request`, given the row as stored when the write happens (undefined: none). Every
 * store calls this inside its write, so the rules are the same everywhere: a stale version is a
 * CONFLICT, a forgotten memory takes no change, and the version goes up by one.
 */
export function applyChange(
  current: MemoryRecord | undefined,
  request: ChangeRequest,
  embeddingModel: string | null,
): ChangeOutcome {
  if (current === undefined || (current.deleted_at !== null && request.if_forgotten !== 'apply')) {
    const reason = current === undefined ? 'missing' : 'forgotten';
    if (request.if_forgotten !== 'reject') return { status: 'dropped', reason };
    throw new MemoryError(
      'MEMORY_NOT_FOUND',
      current === undefined
        ? `Memory ${request.memory_id} does not exist for this user.`
        : `Memory ${request.memory_id} is forgotten; restore it before editing.`,
      { details: { memory_id: request.memory_id } },
    );
  }
  if (request.expected_version !== undefined && request.expected_version !== current.version) {
    throw conflictError(request.memory_id, request.expected_version, current.version);
  }
  const { change } = request;
  const set = change.set ?? {};
  const next: MemoryRecord = {
    ...current,
    ...set,
    content: change.content ?? current.content,
    metadata: withMetadata(current.metadata, change.merge_metadata, change.remove_metadata),
    tags: withAdded(set.tags ?? current.tags, change.add_tags),
    entities: withAdded(set.entities ?? current.entities, change.add_entities),
    related_memories: withAdded(set.related_memories ?? current.related_memories, change.add_related),
    embedding_model: embeddingModel,
    updated_at: request.at ?? current.updated_at,
    access_count: change.access?.count ?? current.access_count,
    last_accessed: change.access?.last_accessed ?? current.last_accessed,
    version: isBookkeepingOnly(change) ? current.version : current.version + 1,
  };
  if (change.cap_confidence !== undefined) next.confidence = Math.min(next.confidence, change.cap_confidence);
  return { status: 'applied', memory: next };
}

export function conflictError(memoryId: string, expected: number, current: number): MemoryError {
  return new MemoryError(
    'CONFLICT',
    `Memory ${memoryId} changed elsewhere (version ${current}, this change was based on version ${expected}); read it again and redo the change.`,
    { details: { memory_id: memoryId, expected_version: expected, current_version: current } },
  );
}

const SETTABLE: readonly (keyof SettableMemoryFields)[] = [
  'memory_category',
  'memory_subtype',
  'summary',
  'entities',
  'tags',
  'event_time',
  'is_temporal',
  'importance',
  'decay_factor',
  'related_memories',
  'supersedes',
  'superseded_by',
  'confidence',
  'pinned',
  'org_id',
  'project_id',
  'source_type',
];

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The change that turns `before` into `after`, field by field and metadata key by metadata key:
 * only what the caller edited is in it, so applied to a row that changed meanwhile in other
 * fields or keys, it keeps those changes.
 */
export function changeBetween(before: MemoryRecord, after: MemoryRecord): MemoryChange {
  const set: Record<string, unknown> = {};
  for (const field of SETTABLE) {
    if (!sameValue(before[field], after[field])) set[field] = after[field];
  }
  const merge: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after.metadata)) {
    if (!sameValue(before.metadata[key], value)) merge[key] = value;
  }
  const removed = Object.keys(before.metadata).filter((key) => !(key in after.metadata));
  return {
    ...(Object.keys(set).length > 0 ? { set: set as SettableMemoryFields } : {}),
    ...(Object.keys(merge).length > 0 ? { merge_metadata: merge } : {}),
    ...(removed.length > 0 ? { remove_metadata: removed } : {}),
    ...(before.content !== after.content ? { content: after.content } : {}),
  };
}
