/**
 * The coding development set (../shared/data/README.md, coding-dev.json): memories a coding agent
 * stores, questions asking for them mostly in other words (labelled by the kind of wording gap),
 * and questions about topics never stored. Loaded from shared/ at run time, never shipped.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryCategory } from '../../src/core/domain/taxonomy.ts';
import type { MemoryCore } from '../../src/core/memoryCore.ts';
import { formatTurn, loadSamples, sessionsOf, type SessionTurns, type Turn } from '../locomo/locomoData.ts';

export interface CodingMemory {
  id: string;
  cat: string;
  sub: string;
  text: string;
}
export interface CodingQuery {
  q: string;
  id: string;
  kind: string;
}
export interface CodingSet {
  memories: CodingMemory[];
  queries: CodingQuery[];
  negatives: string[];
}

/** Kinds of wording gap, in the order the table prints them. */
export const GAP_KINDS = ['lex', 'morph', 'syn', 'hyper', 'para'] as const;

export function loadCodingSet(): CodingSet {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const path = process.env.CODING_SET_PATH ?? resolve(root, '../shared/data/coding-dev.json');
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as CodingSet;
  return { memories: parsed.memories, queries: parsed.queries, negatives: parsed.negatives };
}

/** A memory of the first set as the benchmarks store it: its text, category and subtype, nothing else. */
export function codingMemory(userId: string, memory: CodingMemory) {
  return {
    user_id: userId,
    content: memory.text,
    memory_category: memory.cat as MemoryCategory,
    memory_subtype: memory.sub,
  };
}

/** A LoCoMo turn stored beside the first set as a distractor: a dialog turn, its dia_id and session in metadata, no date. */
export function distractorTurn(userId: string, session: SessionTurns, turn: Turn) {
  return {
    user_id: userId,
    content: formatTurn(turn),
    memory_category: 'episodic' as const,
    memory_subtype: 'conversation' as const,
    metadata: { dia_id: turn.dia_id, session: session.session },
  };
}

/**
 * Stores the first set as the in-process diagnostics ask it: LoCoMo conv-26's turns as distractors,
 * then the set's memories. Returns the set and each stored memory's set id by memory_id.
 */
export async function storeCodingSetWithDistractors(
  core: MemoryCore,
  userId: string,
): Promise<{ set: CodingSet; idOf: Map<string, string> }> {
  const distractors = loadSamples().find((sample) => sample.sample_id === 'conv-26')!;
  for (const session of sessionsOf(distractors))
    for (const turn of session.turns) await core.storeMemory(distractorTurn(userId, session, turn));
  const set = loadCodingSet();
  const idOf = new Map<string, string>();
  for (const memory of set.memories) {
    const stored = await core.storeMemory(codingMemory(userId, memory));
    idOf.set(stored.memory_id, memory.id);
  }
  return { set, idOf };
}
