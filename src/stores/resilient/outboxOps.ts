import type { AccessLogEntry, MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import type { WorkingChange } from '../../core/ports/memoryStore.ts';

/** An embedding as JSON: float32 values print and parse back exactly as doubles. */
interface EmbeddingJson {
  model: string;
  vector: number[];
}

/**
 * One store write, as kept in the outbox until Firebolt has it. `embedding: 'keep'` is the
 * port's `undefined` (keep the stored vector), which JSON cannot carry.
 */
export type OutboxOp =
  | { op: 'insertMemory'; memory: MemoryRecord; embedding: StoredEmbedding | null }
  | { op: 'updateMemory'; memory: MemoryRecord; embedding: StoredEmbedding | null | 'keep' }
  | { op: 'hardDeleteMemory'; userId: string; memoryId: string }
  | { op: 'deleteUser'; userId: string }
  | { op: 'commitWorking'; change: WorkingChange }
  | { op: 'recordAccess'; entries: readonly AccessLogEntry[] };

export type OutboxOpName = OutboxOp['op'];

function embeddingToJson(embedding: StoredEmbedding | null | 'keep'): EmbeddingJson | null | 'keep' {
  return embedding === null || embedding === 'keep'
    ? embedding
    : { model: embedding.model, vector: Array.from(embedding.vector) };
}

function embeddingFromJson(value: EmbeddingJson | null | 'keep'): StoredEmbedding | null | 'keep' {
  return value === null || value === 'keep' ? value : { model: value.model, vector: Float32Array.from(value.vector) };
}

export function serializeOp(op: OutboxOp): string {
  if (op.op === 'insertMemory' || op.op === 'updateMemory')
    return JSON.stringify({ ...op, embedding: embeddingToJson(op.embedding) });
  return JSON.stringify(op);
}

export function deserializeOp(text: string): OutboxOp {
  const parsed = JSON.parse(text) as OutboxOp & { embedding?: EmbeddingJson | null | 'keep' };
  // An outbox written before memory layers existed holds user-layer memories without the fields.
  if ((parsed.op === 'insertMemory' || parsed.op === 'updateMemory') && parsed.memory.layer === undefined) {
    parsed.memory = { ...parsed.memory, layer: 'user', scope_id: parsed.memory.user_id };
  }
  // serializeOp always writes the embedding field; null (remove) and 'keep' are distinct values.
  if (parsed.op === 'insertMemory')
    return {
      ...parsed,
      embedding: embeddingFromJson(parsed.embedding as EmbeddingJson | null) as StoredEmbedding | null,
    };
  if (parsed.op === 'updateMemory')
    return { ...parsed, embedding: embeddingFromJson(parsed.embedding as EmbeddingJson | null | 'keep') };
  return parsed;
}

/** The user an operation belongs to, for progress and health output. */
export function userOf(op: OutboxOp): string {
  switch (op.op) {
    case 'insertMemory':
    case 'updateMemory':
      return op.memory.user_id;
    case 'hardDeleteMemory':
    case 'deleteUser':
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
    case 'updateMemory':
      return erasedMemory(op.memory.user_id, op.memory.memory_id) ? null : 'unchanged';
    case 'hardDeleteMemory':
      return 'unchanged';
    case 'deleteUser':
      return 'unchanged';
    case 'commitWorking':
      return memoryId === null && op.change.session.user_id === userId ? null : 'unchanged';
    case 'recordAccess': {
      const entries = op.entries.filter((entry) => !erasedMemory(entry.user_id, entry.memory_id));
      if (entries.length === op.entries.length) return 'unchanged';
      return entries.length === 0 ? null : { ...op, entries };
    }
  }
}
