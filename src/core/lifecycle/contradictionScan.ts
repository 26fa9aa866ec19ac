import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { factOfMemory } from '../facts/factModel.ts';
import { LIMITS, requireId, requirePositiveInt } from '../validation.ts';
import { type Contradiction, detectContradiction, hasNegation, subjectKey } from './contradictions.ts';
import { listAllMemories } from './listAll.ts';

export interface ContradictionPair {
  older: { memory_id: string; content: string; confidence: number; created_at: string };
  newer: { memory_id: string; content: string; confidence: number; created_at: string };
  kind: Contradiction['kind'];
  strength: Contradiction['strength'];
  reason: string;
}

export interface ScanResult {
  pairs: ContradictionPair[];
  memories_scanned: number;
  truncated: boolean;
}

const SCAN_CAP = 5_000;

/**
 * Suspected contradictions among a user's live, current memories (find_memory_contradictions).
 * Pairs are only compared when they could conflict: same fact key, same statement subject, or
 * one of them negates something. That keeps the scan near-linear on real memory sets.
 */
export async function scanContradictions(
  deps: CoreDeps,
  userId: string,
  options: { limit?: number; project_id?: string | null } = {},
): Promise<ScanResult> {
  const limit = requirePositiveInt(options.limit, 'limit', 50, LIMITS.contradictionPairs);
  const { items, truncated } = await listAllMemories(
    deps.store,
    {
      user_id: requireId(userId, 'user_id'),
      state: 'live',
      ...(options.project_id !== undefined ? { project_id: options.project_id } : {}),
    },
    SCAN_CAP,
  );
  const memories = items.filter((memory) => memory.memory_category !== 'episodic' || factOfMemory(memory));
  const buckets = new Map<string, MemoryRecord[]>();
  const add = (key: string, memory: MemoryRecord) => buckets.set(key, [...(buckets.get(key) ?? []), memory]);
  for (const memory of memories) {
    const fact = factOfMemory(memory);
    if (fact) add(`fact:${fact.category}/${fact.key}`, memory);
    const subject = subjectKey(memory.content);
    if (subject) add(`subject:${subject}`, memory);
  }
  const seen = new Set<string>();
  const pairs: ContradictionPair[] = [];
  const consider = (a: MemoryRecord, b: MemoryRecord) => {
    const [older, newer] = a.created_at <= b.created_at ? [a, b] : [b, a];
    const id = `${older.memory_id}|${newer.memory_id}`;
    if (older.memory_id === newer.memory_id || seen.has(id)) return;
    seen.add(id);
    const found = detectContradiction(older, newer);
    if (found)
      pairs.push({
        older: brief(older),
        newer: brief(newer),
        kind: found.kind,
        strength: found.strength,
        reason: found.reason,
      });
  };
  for (const group of buckets.values()) {
    for (let i = 0; i < group.length; i++) for (let j = i + 1; j < group.length; j++) consider(group[i], group[j]);
  }
  const negated = memories.filter((memory) => hasNegation(memory.content));
  for (const negative of negated)
    for (const other of memories) if (!hasNegation(other.content)) consider(negative, other);
  pairs.sort((a, b) =>
    a.strength === b.strength ? b.newer.created_at.localeCompare(a.newer.created_at) : a.strength === 'strong' ? -1 : 1,
  );
  return { pairs: pairs.slice(0, limit), memories_scanned: memories.length, truncated };
}

function brief(memory: MemoryRecord): ContradictionPair['older'] {
  return {
    memory_id: memory.memory_id,
    content: memory.content,
    confidence: memory.confidence,
    created_at: memory.created_at,
  };
}
