import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { factIdentity } from '../facts/factModel.ts';
import type { LexicalQuery } from './memoryStore.ts';

/**
 * What the duplicate rule (duplicateProbe.ts) reads of a stored memory: its text and where it
 * belongs, never the whole row. A store answers the duplicate search's candidates in this form
 * (MemoryStore.duplicateCandidates), so a store_memory reads its five candidates' text and a few
 * columns; only the closest one, when it is close enough to report or merge, is read in full.
 */
export interface DuplicateCandidate {
  memory_id: string;
  content: string;
  layer: string;
  scope_id: string;
  project_id: string | null;
  deleted: boolean;
  superseded: boolean;
  /** factIdentity of its metadata: the fact it states, or null. */
  fact: string | null;
}

/** The fact a memory's metadata states, as the duplicate rule compares it (factIdentity), or null. */
export function duplicateFactOf(metadata: Record<string, unknown>): string | null {
  return factIdentity(metadata);
}

/** A full record as the duplicate rule reads it; what MemoryStore.duplicateCandidates answers for it. */
export function duplicateCandidateOf(memory: MemoryRecord): DuplicateCandidate {
  return {
    memory_id: memory.memory_id,
    content: memory.content,
    layer: memory.layer,
    scope_id: memory.scope_id,
    project_id: memory.project_id,
    deleted: memory.deleted_at !== null,
    superseded: memory.superseded_by !== null,
    fact: factIdentity(memory.metadata),
  };
}

/**
 * What makes "is this new memory a duplicate?" and the insert one step (issue 35.4). The caller
 * searched for duplicates and found none; the store checks again, inside the write that inserts,
 * every memory that could have become a duplicate since that search began, and inserts only if
 * none is one. Two identical stores at the same moment, in one process or several, so leave one
 * memory: the later one finds the earlier inside its own write.
 */
export interface DuplicateGuard {
  /**
   * The store's `duplicateMark(user)` read before the caller's search: every memory written after
   * it is checked inside the write (SQLite reads them from its change log).
   */
  mark: string;
  /**
   * The caller's candidate search, for a store that runs it again inside its write transaction
   * instead of keeping a change log (Firebolt).
   */
  candidates: LexicalQuery;
  /** Whether `similarity` uses the candidate's stored vector (the new memory has one). */
  wantsEmbeddings: boolean;
  /**
   * How close a stored memory is to the new one, 0–1; 0 when it cannot be its duplicate at all
   * (forgotten, superseded, another layer scope, project or fact). Pure: the store calls it inside
   * its write.
   */
  similarity(candidate: MemoryRecord, embedding: StoredEmbedding | null): number;
  /** At or above it a candidate is a duplicate. */
  threshold: number;
}

/**
 * inserted: the memory is stored. duplicate: nothing was stored; `memory` is the one written since
 * the search that duplicates it. stale: the store cannot tell what was written since the mark
 * (its change log was trimmed past it); nothing was stored, search again.
 */
export type GuardedInsert =
  { status: 'inserted' } | { status: 'duplicate'; memory: MemoryRecord; similarity: number } | { status: 'stale' };

/** The closest duplicate among candidates read inside a write, or null. */
export function closestDuplicate(
  guard: DuplicateGuard,
  candidates: readonly MemoryRecord[],
  embeddings: ReadonlyMap<string, StoredEmbedding>,
): { memory: MemoryRecord; similarity: number } | null {
  let best: { memory: MemoryRecord; similarity: number } | null = null;
  for (const memory of candidates) {
    const similarity = guard.similarity(memory, embeddings.get(memory.memory_id) ?? null);
    if (similarity >= guard.threshold && (best === null || similarity > best.similarity)) best = { memory, similarity };
  }
  return best;
}
