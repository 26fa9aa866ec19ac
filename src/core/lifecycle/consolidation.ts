import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { normaliseEntities } from '../entities/extractEntities.ts';
import { guardText } from '../safety/contentGuard.ts';
import { newId } from '../util/ids.ts';
import { LIMITS, requireContent, requireId, requireUnitInterval } from '../validation.ts';
import { isProtected } from './eligibility.ts';
import { listAllMemories } from './listAll.ts';
import { SimilarityIndex } from './similarityIndex.ts';

export interface ConsolidateInput {
  user_id: string;
  /** Similarity at or above which memories are near-duplicates (default 0.85, seed 003). */
  threshold?: number;
  dry_run?: boolean;
  /** Most memories one run looks at, oldest first (default 1000; clustering is quadratic). */
  max_candidates?: number;
}

export interface ConsolidatedCluster {
  /** The new memory; absent on a dry run. */
  memory_id: string | null;
  consolidated_from: string[];
  content: string;
  method: 'deterministic' | 'summarize';
  /** Why the summarizer was not used when it failed; the deterministic merge stood in. */
  summarize_error?: string;
}

export interface ConsolidateOutput {
  clusters: ConsolidatedCluster[];
  archived_count: number;
  memories_considered: number;
  dry_run: boolean;
}

/**
 * Merges clusters of near-duplicate memories (seed 003 consolidation). The merge is deterministic:
 * the most complete content (longest; newest on ties), entities and tags united, the highest
 * importance and confidence, access counts summed. With a `summarize` hook the content is its
 * summary instead. Originals are archived (soft-deleted with metadata.consolidated_into), and the
 * result names them in metadata.consolidated_from, so every merge can be traced and undone.
 */
export async function consolidateMemories(deps: CoreDeps, input: ConsolidateInput): Promise<ConsolidateOutput> {
  const userId = requireId(input.user_id, 'user_id');
  const threshold = requireUnitInterval(input.threshold, 'threshold', 0.85);
  const cap = Math.max(2, Math.min(LIMITS.consolidationCandidates, Math.floor(input.max_candidates ?? 1_000)));
  const { items } = await listAllMemories(deps.store, { user_id: userId, state: 'live' }, cap);
  const candidates = items.filter((memory) => !isProtected(memory));
  const embeddings = await deps.store.getEmbeddings(
    userId,
    candidates.map((memory) => memory.memory_id),
  );
  const index = new SimilarityIndex(
    candidates.map((memory) => memory.content),
    candidates.map((memory) => embeddings.get(memory.memory_id)),
  );
  // Only memories of one category and one layer scope merge: a decision and a workflow that read
  // alike are still different things, and moving a memory between layers is promotion's job alone.
  const mergeable = (a: MemoryRecord, b: MemoryRecord): boolean =>
    a.memory_category === b.memory_category &&
    a.project_id === b.project_id &&
    a.layer === b.layer &&
    a.scope_id === b.scope_id;
  const groups = await index.clusters(threshold, (i, j) => mergeable(candidates[i], candidates[j]));
  const clusters: ConsolidatedCluster[] = [];
  let archived = 0;
  for (const group of groups) {
    const members = group.map((position) => candidates[position]);
    const merged = await mergeCluster(deps, members);
    if (input.dry_run) {
      clusters.push({
        memory_id: null,
        consolidated_from: members.map((memory) => memory.memory_id),
        content: merged.record.content,
        method: merged.method,
        ...summarizeNote(merged),
      });
      continue;
    }
    archived += await writeCluster(deps, merged, members);
    deps.events.emit({ type: 'memory', user_id: userId, memory_ids: [merged.record.memory_id], change: 'created' });
    deps.events.emit({
      type: 'memory',
      user_id: userId,
      memory_ids: members.map((member) => member.memory_id),
      change: 'deleted',
    });
    clusters.push({
      memory_id: merged.record.memory_id,
      consolidated_from: members.map((memory) => memory.memory_id),
      content: merged.record.content,
      method: merged.method,
      ...summarizeNote(merged),
    });
  }
  return {
    clusters,
    archived_count: archived,
    memories_considered: candidates.length,
    dry_run: input.dry_run === true,
  };
}

/**
 * Writes one cluster: the merged memory, then each original archived into it. A failure part-way
 * undoes what was written (the originals restored as they were, the merged memory removed) and is
 * rethrown, so a cluster is merged whole or not at all: never a merged memory beside its active
 * originals (a duplicate) nor originals archived into nothing.
 */
async function writeCluster(
  deps: CoreDeps,
  merged: { record: MemoryRecord; embedding: StoredEmbedding | null },
  members: readonly MemoryRecord[],
): Promise<number> {
  const now = merged.record.created_at;
  const marked: MemoryRecord[] = [];
  const archived: MemoryRecord[] = [];
  let inserted = false;
  try {
    await deps.store.insertMemory(merged.record, merged.embedding);
    inserted = true;
    // The merged text was written from these versions: a member edited since keeps its edit and
    // stays live (CONFLICT), one forgotten since stays as it is.
    for (const member of members) {
      const outcome = await deps.store
        .changeMemory({
          user_id: member.user_id,
          memory_id: member.memory_id,
          change: { merge_metadata: { consolidated_into: merged.record.memory_id } },
          at: now,
          expected_version: member.version,
          if_forgotten: 'drop',
        })
        .catch((error: unknown) => {
          if (MemoryError.is(error, 'CONFLICT')) return null;
          throw error;
        });
      if (outcome?.status !== 'applied') continue;
      marked.push(member);
      await deps.store.forgetMemories(member.user_id, [member.memory_id], now);
      archived.push(member);
    }
  } catch (error) {
    try {
      await undoCluster(deps, merged.record, marked, archived, inserted, now);
    } catch (undoError) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `Consolidation failed and could not be fully undone; memory ${merged.record.memory_id} may sit beside the originals it merged. First failure: ${String(error instanceof Error ? error.message : error)}`,
        { cause: undoError, operation: 'consolidate' },
      );
    }
    throw error;
  }
  return archived.length;
}

/** Puts the originals back as they were (live, without the link) and removes the merged memory. */
async function undoCluster(
  deps: CoreDeps,
  merged: MemoryRecord,
  marked: readonly MemoryRecord[],
  archived: readonly MemoryRecord[],
  inserted: boolean,
  now: string,
): Promise<void> {
  if (archived.length > 0)
    await deps.store.restoreMemories(
      merged.user_id,
      archived.map((member) => member.memory_id),
      now,
    );
  for (const member of marked)
    await deps.store.changeMemory({
      user_id: member.user_id,
      memory_id: member.memory_id,
      change: { remove_metadata: ['consolidated_into'] },
      at: now,
      if_forgotten: 'drop',
    });
  if (inserted) await deps.store.hardDeleteMemory(merged.user_id, merged.memory_id, 'undo');
}

function summarizeNote(merged: { summarizeError?: string }): { summarize_error?: string } {
  return merged.summarizeError ? { summarize_error: merged.summarizeError } : {};
}

async function mergeCluster(
  deps: CoreDeps,
  members: MemoryRecord[],
): Promise<{
  record: MemoryRecord;
  embedding: StoredEmbedding | null;
  method: ConsolidatedCluster['method'];
  summarizeError?: string;
}> {
  const richest = [...members].sort(
    (a, b) => b.content.length - a.content.length || b.created_at.localeCompare(a.created_at),
  )[0];
  let content = richest.content;
  let method: ConsolidatedCluster['method'] = 'deterministic';
  let summarizeError: string | undefined;
  if (deps.summarize) {
    try {
      // A summary is new text: it passes the same secret gate and limits as anything stored.
      content = guardText(
        requireContent(await deps.summarize(members.map((member) => member.content)), 'summary'),
        deps.config,
        'summary',
      ).content;
      method = 'summarize';
    } catch (error) {
      // The summarizer (an LLM) is optional: when it fails, maintenance still runs with the
      // deterministic merge and says why, instead of failing the whole run.
      summarizeError = error instanceof Error ? error.message : String(error);
    }
  }
  const ids = new Set(members.map((member) => member.memory_id));
  const now = deps.clock.now().toISOString();
  const embedded = await deps.embeddings.embed(content);
  const embedding =
    embedded.vector && deps.embeddings.model ? { model: deps.embeddings.model, vector: embedded.vector } : null;
  const eventTimes = members
    .map((member) => member.event_time)
    .filter((time): time is string => time !== null)
    .sort();
  const record: MemoryRecord = {
    ...richest,
    memory_id: newId('mem'),
    content,
    summary: null,
    entities: normaliseEntities(members.flatMap((member) => member.entities)).slice(0, LIMITS.entities),
    tags: [...new Set(members.flatMap((member) => member.tags))].slice(0, LIMITS.tags),
    metadata: {
      ...richest.metadata,
      tags: [...new Set(members.flatMap((member) => member.tags))].slice(0, LIMITS.tags),
      consolidated_from: [...ids],
      consolidation: {
        at: now,
        method,
        original_count: members.length,
        earliest_created_at: members.map((member) => member.created_at).sort()[0],
      },
    },
    event_time: eventTimes[0] ?? null,
    importance: Math.max(...members.map((member) => member.importance)),
    confidence: Math.max(...members.map((member) => member.confidence)),
    access_count: members.reduce((total, member) => total + member.access_count, 0),
    decay_factor: Math.max(...members.map((member) => member.decay_factor)),
    related_memories: [...new Set(members.flatMap((member) => member.related_memories))].filter((id) => !ids.has(id)),
    supersedes: null,
    superseded_by: null,
    source_type: richest.source_type,
    pinned: false,
    embedding_model: embedding?.model ?? null,
    created_at: now,
    last_accessed:
      members
        .map((member) => member.last_accessed)
        .sort()
        .at(-1) ?? now,
    updated_at: now,
    deleted_at: null,
    version: 1,
  };
  return { record, embedding, method, ...(summarizeError ? { summarizeError } : {}) };
}
