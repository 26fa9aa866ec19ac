import type { RecallInput, RecallOutput } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { LIMITS, requireId, requirePositiveInt, requireUnitInterval } from '../validation.ts';
import { requireLiveMemories } from './requireMemories.ts';
import { DEFAULT_LINK_THRESHOLD, relatedness } from './relatedness.ts';
import { applyEdit } from '../longterm/applyEdit.ts';

/** Memory graph over related_memories (seed 003 /related): links are symmetric and user-scoped. */

const MAX_LINKS = 200;
const MAX_DEPTH = LIMITS.relatedDepth;

export interface LinkOutput {
  memory_id: string;
  other_memory_id: string;
  changed: boolean;
}

export async function linkMemories(
  deps: CoreDeps,
  userId: string,
  memoryId: string,
  otherId: string,
): Promise<LinkOutput> {
  const user = requireId(userId, 'user_id');
  if (memoryId === otherId)
    throw new MemoryError('INVALID_INPUT', 'A memory cannot be linked to itself.', {
      details: { field: 'other_memory_id' },
    });
  const [a, b] = await requireLiveMemories(deps, user, [memoryId, otherId], ['memory_id', 'other_memory_id']);
  if (a.related_memories.includes(b.memory_id) && b.related_memories.includes(a.memory_id))
    return { memory_id: a.memory_id, other_memory_id: b.memory_id, changed: false };
  if (a.related_memories.length >= MAX_LINKS || b.related_memories.length >= MAX_LINKS) {
    throw new MemoryError('INVALID_INPUT', `A memory holds at most ${MAX_LINKS} links; unlink some first.`, {
      details: { field: 'memory_id' },
    });
  }
  const now = deps.clock.now().toISOString();
  const link = (from: MemoryRecord, to: MemoryRecord) =>
    deps.store.changeMemory({
      user_id: user,
      memory_id: from.memory_id,
      change: { add_related: [to.memory_id] },
      at: now,
      if_forgotten: 'reject',
    });
  await link(a, b);
  await link(b, a);
  deps.events.emit({ type: 'memory', user_id: user, memory_ids: [a.memory_id, b.memory_id], change: 'updated' });
  return { memory_id: a.memory_id, other_memory_id: b.memory_id, changed: true };
}

export async function unlinkMemories(
  deps: CoreDeps,
  userId: string,
  memoryId: string,
  otherId: string,
): Promise<LinkOutput> {
  const user = requireId(userId, 'user_id');
  // Unlinking tolerates a forgotten partner: a dangling link is exactly what one wants to remove.
  const found = new Map(
    (await deps.store.getMemories(user, [requireId(memoryId, 'memory_id'), requireId(otherId, 'other_memory_id')])).map(
      (memory) => [memory.memory_id, memory],
    ),
  );
  const a = found.get(memoryId);
  if (!a)
    throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${memoryId} exists for user ${user}.`, {
      details: { memory_id: memoryId },
    });
  const b = found.get(otherId);
  const now = deps.clock.now().toISOString();
  let changed = false;
  if (a.related_memories.includes(otherId)) {
    await applyEdit(
      deps.store,
      a,
      { ...a, related_memories: a.related_memories.filter((id) => id !== otherId), updated_at: now },
      { ifForgotten: 'drop' },
    );
    changed = true;
  }
  if (b && b.related_memories.includes(memoryId)) {
    await applyEdit(
      deps.store,
      b,
      { ...b, related_memories: b.related_memories.filter((id) => id !== memoryId), updated_at: now },
      { ifForgotten: 'drop' },
    );
    changed = true;
  }
  if (!changed && !b)
    throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${otherId} exists for user ${user}.`, {
      details: { memory_id: otherId },
    });
  if (changed)
    deps.events.emit({
      type: 'memory',
      user_id: user,
      memory_ids: b ? [memoryId, otherId] : [memoryId],
      change: 'updated',
    });
  return { memory_id: memoryId, other_memory_id: otherId, changed };
}

export interface RelatedMemory {
  memory_id: string;
  content: string;
  memory_category: string;
  memory_subtype: string;
  depth: number;
  /** Ids from the start memory to this one, both included. */
  path: string[];
  /** 'related', 'supersedes' or 'superseded_by' for the last hop. */
  relationship: string;
}

/** Breadth-first traversal from a memory, nearest first; each memory appears once, at its shortest path. */
export async function relatedMemories(
  deps: CoreDeps,
  input: { user_id: string; memory_id: string; max_depth?: number; limit?: number; include_supersession?: boolean },
): Promise<{ start: string; related_memories: RelatedMemory[]; truncated: boolean }> {
  const user = requireId(input.user_id, 'user_id');
  const maxDepth = requirePositiveInt(input.max_depth, 'max_depth', 2, MAX_DEPTH);
  const limit = requirePositiveInt(input.limit, 'limit', 20, LIMITS.recallLimit);
  const [start] = await requireLiveMemories(deps, user, [input.memory_id], ['memory_id']);
  const visited = new Map<string, string[]>([[start.memory_id, [start.memory_id]]]);
  const result: RelatedMemory[] = [];
  let frontier: MemoryRecord[] = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const edges: Array<{ from: MemoryRecord; to: string; relationship: string }> = [];
    for (const memory of frontier) {
      for (const id of memory.related_memories) edges.push({ from: memory, to: id, relationship: 'related' });
      if (input.include_supersession !== false) {
        if (memory.supersedes) edges.push({ from: memory, to: memory.supersedes, relationship: 'supersedes' });
        if (memory.superseded_by) edges.push({ from: memory, to: memory.superseded_by, relationship: 'superseded_by' });
      }
    }
    const fresh = [...new Set(edges.map((edge) => edge.to).filter((id) => !visited.has(id)))];
    // getMemories is user-scoped: a link to another user's id (impossible to create here, but
    // possible in imported data) resolves to nothing and is skipped.
    const found = new Map(
      (await deps.store.getMemories(user, fresh))
        .filter((memory) => !memory.deleted_at)
        .map((memory) => [memory.memory_id, memory]),
    );
    const next: MemoryRecord[] = [];
    for (const edge of edges) {
      const memory = found.get(edge.to);
      if (!memory || visited.has(edge.to)) continue;
      const path = [...(visited.get(edge.from.memory_id) ?? [edge.from.memory_id]), edge.to];
      visited.set(edge.to, path);
      next.push(memory);
      result.push({
        memory_id: memory.memory_id,
        content: memory.content,
        memory_category: memory.memory_category,
        memory_subtype: memory.memory_subtype,
        depth,
        path,
        relationship: edge.relationship,
      });
      if (result.length >= limit) return { start: start.memory_id, related_memories: result, truncated: true };
    }
    frontier = next;
  }
  return { start: start.memory_id, related_memories: result, truncated: false };
}

export interface AutoLinkHost {
  coreDeps: CoreDeps;
  recall(input: RecallInput, options?: { logAccess?: boolean; tool?: string }): Promise<RecallOutput>;
}

/** Default and largest number of links one auto_link_similar call adds. */
export const DEFAULT_MAX_AUTO_LINKS = 20;
const MAX_AUTO_LINKS = LIMITS.autoLinks;

/**
 * Links a memory to the memories related to it: recall proposes candidates (hybrid search on the
 * memory's own text), and each is linked when its relatedness (relatedness.ts: embeddings when
 * both have them, else index terms) reaches the threshold, most related first.
 */
export async function autoLinkSimilar(
  host: AutoLinkHost,
  input: { user_id: string; memory_id: string; threshold?: number; max_links?: number },
): Promise<{
  memory_id: string;
  linked: Array<{ memory_id: string; similarity: number }>;
  candidates_considered: number;
}> {
  const deps = host.coreDeps;
  const user = requireId(input.user_id, 'user_id');
  const threshold = requireUnitInterval(input.threshold, 'threshold', DEFAULT_LINK_THRESHOLD);
  const maxLinks = requirePositiveInt(input.max_links, 'max_links', DEFAULT_MAX_AUTO_LINKS, MAX_AUTO_LINKS);
  const [memory] = await requireLiveMemories(deps, user, [input.memory_id], ['memory_id']);
  const recalled = await host.recall(
    {
      user_id: user,
      query: memory.content.slice(0, LIMITS.queryChars),
      limit: Math.min(LIMITS.recallLimit, maxLinks * 4),
      min_similarity: 0,
      include_low_confidence: true,
    },
    { logAccess: false, tool: 'link_memories' },
  );
  const candidateIds = recalled.memories.map((entry) => entry.memory_id).filter((id) => id !== memory.memory_id);
  // Full records: relatedness weighs entities and tags, which recall's answer does not carry whole.
  const [candidates, vectors] = await Promise.all([
    deps.store.getMemories(user, candidateIds),
    deps.store.getEmbeddings(user, [memory.memory_id, ...candidateIds]),
  ]);
  const own = vectors.get(memory.memory_id);
  const scored = candidates
    .filter((candidate) => !candidate.deleted_at)
    .map((candidate) => ({
      memory_id: candidate.memory_id,
      similarity:
        Math.round(relatedness(memory, candidate, { a: own, b: vectors.get(candidate.memory_id) }) * 1000) / 1000,
    }))
    .filter((entry) => entry.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, maxLinks);
  for (const entry of scored) await linkMemories(deps, user, memory.memory_id, entry.memory_id);
  return { memory_id: memory.memory_id, linked: scored, candidates_considered: candidateIds.length };
}
