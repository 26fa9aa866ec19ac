import type { AccessLogEntry, MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import type { HardDeleteReason, WorkingChange } from '../../core/ports/memoryStore.ts';
import type { ChangeRequest } from '../../core/domain/memoryChange.ts';

/** An embedding as JSON: float32 values print and parse back exactly as doubles. */
interface EmbeddingJson {
  model: string;
  vector: number[];
}

/**
 * One store write, as kept in the outbox until Firebolt has it. Changes are kept as the intent
 * (merge these keys, forget these ids), never as a row read earlier, so replaying them after an
 * outage composes with whatever else reached Firebolt meanwhile, and replaying one twice is harmless.
 */
export type OutboxOp =
  | { op: 'insertMemory'; memory: MemoryRecord; embedding: StoredEmbedding | null }
  | { op: 'changeMemory'; request: ChangeRequest }
  | { op: 'forgetMemories'; userId: string; memoryIds: readonly string[]; at: string }
  | { op: 'restoreMemories'; userId: string; memoryIds: readonly string[]; at: string }
  | { op: 'hardDeleteMemory'; userId: string; memoryId: string; reason?: HardDeleteReason }
  | { op: 'deleteUser'; userId: string }
  | { op: 'commitWorking'; change: WorkingChange }
  | { op: 'deleteSession'; userId: string; sessionId: string }
  | { op: 'recordAccess'; entries: readonly AccessLogEntry[] };

export type OutboxOpName = OutboxOp['op'];

function embeddingToJson(embedding: StoredEmbedding | null): EmbeddingJson | null {
  return embedding === null ? null : { model: embedding.model, vector: Array.from(embedding.vector) };
}

function embeddingFromJson(value: EmbeddingJson | null): StoredEmbedding | null {
  return value === null ? null : { model: value.model, vector: Float32Array.from(value.vector) };
}

export function serializeOp(op: OutboxOp): string {
  if (op.op === 'insertMemory') return JSON.stringify({ ...op, embedding: embeddingToJson(op.embedding) });
  if (op.op === 'changeMemory' && op.request.change.embedding !== undefined) {
    const change = { ...op.request.change, embedding: embeddingToJson(op.request.change.embedding) };
    return JSON.stringify({ ...op, request: { ...op.request, change } });
  }
  return JSON.stringify(op);
}

/** A whole-row update queued by a build before atomic changes, as the intent it stood for. */
interface LegacyUpdateOp {
  op: 'updateMemory';
  memory: MemoryRecord;
  embedding: EmbeddingJson | null | 'keep';
}

function fromLegacyUpdate({ memory, embedding }: LegacyUpdateOp): OutboxOp {
  const at = memory.updated_at;
  if (memory.deleted_at !== null) {
    return { op: 'forgetMemories', userId: memory.user_id, memoryIds: [memory.memory_id], at: memory.deleted_at };
  }
  const { memory_category, memory_subtype, summary, entities, tags, event_time, is_temporal, importance } = memory;
  const { decay_factor, related_memories, supersedes, superseded_by, confidence, pinned } = memory;
  return {
    op: 'changeMemory',
    request: {
      user_id: memory.user_id,
      memory_id: memory.memory_id,
      at,
      if_forgotten: 'drop',
      change: {
        content: memory.content,
        merge_metadata: memory.metadata,
        set: {
          memory_category,
          memory_subtype,
          summary,
          entities,
          tags,
          event_time,
          is_temporal,
          importance,
          decay_factor,
          related_memories,
          supersedes,
          superseded_by,
          confidence,
          pinned,
        },
        ...(embedding === 'keep' ? {} : { embedding: embeddingFromJson(embedding) }),
      },
    },
  };
}

export function deserializeOp(text: string): OutboxOp {
  const parsed = JSON.parse(text) as OutboxOp | LegacyUpdateOp;
  if (parsed.op === 'updateMemory' || parsed.op === 'insertMemory') {
    // An outbox written before memory layers existed holds user-layer memories without the fields.
    if (parsed.memory.layer === undefined) {
      parsed.memory = { ...parsed.memory, layer: 'user', scope_id: parsed.memory.user_id };
    }
    // ... and before versions, none.
    if (parsed.memory.version === undefined) parsed.memory = { ...parsed.memory, version: 1 };
  }
  if (parsed.op === 'updateMemory') return fromLegacyUpdate(parsed);
  if (parsed.op === 'insertMemory')
    return { ...parsed, embedding: embeddingFromJson(parsed.embedding as unknown as EmbeddingJson | null) };
  if (parsed.op === 'changeMemory' && parsed.request.change.embedding !== undefined) {
    const embedding = embeddingFromJson(parsed.request.change.embedding as unknown as EmbeddingJson | null);
    return { ...parsed, request: { ...parsed.request, change: { ...parsed.request.change, embedding } } };
  }
  return parsed;
}

/** The user an operation belongs to, for progress and health output. */
export function userOf(op: OutboxOp): string {
  switch (op.op) {
    case 'insertMemory':
      return op.memory.user_id;
    case 'changeMemory':
      return op.request.user_id;
    case 'forgetMemories':
    case 'restoreMemories':
    case 'hardDeleteMemory':
    case 'deleteUser':
    case 'deleteSession':
      return op.userId;
    case 'commitWorking':
      return op.change.session.user_id;
    case 'recordAccess':
      return op.entries[0]?.user_id ?? '';
  }
}

/**
 * An operation with the erased data taken out: null when nothing of it is left, 'unchanged' when
 * it holds none. `memoryId` null erases the whole user.
 */
export function withoutErased(op: OutboxOp, userId: string, memoryId: string | null): OutboxOp | null | 'unchanged' {
  const erasedMemory = (owner: string, id: string) => owner === userId && (memoryId === null || id === memoryId);
  switch (op.op) {
    case 'insertMemory':
      return erasedMemory(op.memory.user_id, op.memory.memory_id) ? null : 'unchanged';
    case 'changeMemory':
      return erasedMemory(op.request.user_id, op.request.memory_id) ? null : 'unchanged';
    case 'forgetMemories':
    case 'restoreMemories': {
      const memoryIds = op.memoryIds.filter((id) => !erasedMemory(op.userId, id));
      if (memoryIds.length === op.memoryIds.length) return 'unchanged';
      return memoryIds.length === 0 ? null : { ...op, memoryIds };
    }
    case 'hardDeleteMemory':
      return 'unchanged';
    case 'deleteUser':
      return 'unchanged';
    case 'commitWorking':
      return memoryId === null && op.change.session.user_id === userId ? null : 'unchanged';
    case 'deleteSession':
      return memoryId === null && op.userId === userId ? null : 'unchanged';
    case 'recordAccess': {
      const entries = op.entries.filter((entry) => !erasedMemory(entry.user_id, entry.memory_id));
      if (entries.length === op.entries.length) return 'unchanged';
      return entries.length === 0 ? null : { ...op, entries };
    }
  }
}
