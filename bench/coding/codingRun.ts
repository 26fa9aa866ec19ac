/**
 * Runs the coding set through an MCP client as the data README scores it: every memory stored
 * with store_memory for one user, a few hundred unrelated dialog turns as distractors, each
 * question asked with recall_memories (default options, no embedding provider), recall@1/@5 of
 * the target per kind of wording gap, and for the never-stored topics how many memories come back.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk } from '../../test/support/testCore.ts';
import { type Sample, sessionsOf } from '../locomo/locomoData.ts';
import { codingMemory, distractorTurn, GAP_KINDS, type CodingSet } from './codingData.ts';

export interface CodingResult {
  /** kind -> [hits@1, hits@5, questions]; 'all' included. */
  byKind: Map<string, [number, number, number]>;
  negativeCounts: number[];
  distractors: number;
  recallMs: number[];
}

const USER = 'coding-dev';

export async function runCodingSet(client: Client, set: CodingSet, distractorSample: Sample): Promise<CodingResult> {
  let distractors = 0;
  // Distractors first, as dialog turns of one conversation (one session id per dialog session).
  for (const session of sessionsOf(distractorSample)) {
    for (const turn of session.turns) {
      await callOk(client, 'store_memory', distractorTurn(USER, session, turn));
      distractors++;
    }
  }
  const idOf = new Map<string, string>();
  for (const memory of set.memories) {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', codingMemory(USER, memory));
    idOf.set(stored.memory_id, memory.id);
  }
  const byKind = new Map<string, [number, number, number]>([...GAP_KINDS, 'all'].map((kind) => [kind, [0, 0, 0]]));
  const recallMs: number[] = [];
  for (const query of set.queries) {
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    const result = await callOk<{ memories: Array<{ memory_id: string }> }>(client, 'recall_memories', {
      user_id: USER,
      query: query.q,
      limit: 10,
    });
    recallMs.push(performance.now() - started);
    const ranked = result.memories.map((memory) => idOf.get(memory.memory_id));
    for (const kind of [query.kind, 'all']) {
      const row = byKind.get(kind) ?? [0, 0, 0];
      row[0] += ranked[0] === query.id ? 1 : 0;
      row[1] += ranked.slice(0, 5).includes(query.id) ? 1 : 0;
      row[2] += 1;
      byKind.set(kind, row);
    }
  }
  const negativeCounts: number[] = [];
  for (const question of set.negatives) {
    const result = await callOk<{ memories: unknown[] }>(client, 'recall_memories', { user_id: USER, query: question });
    negativeCounts.push(result.memories.length);
  }
  return { byKind, negativeCounts, distractors, recallMs };
}

/** One line per kind of gap, then the never-stored topics. */
export function codingTable(result: CodingResult, memories: number): string {
  const pct = (hits: number, n: number): string => (n === 0 ? '-' : ((100 * hits) / n).toFixed(1)).padStart(7);
  const lines = [
    `coding dev set (${memories} memories + ${result.distractors} distractor dialog turns)`,
    `  ${'kind'.padEnd(8)}${'n'.padStart(4)}${'@1'.padStart(7)}${'@5'.padStart(7)}`,
  ];
  for (const [kind, [at1, at5, n]] of result.byKind)
    lines.push(`  ${kind.padEnd(8)}${String(n).padStart(4)}${pct(at1, n)}${pct(at5, n)}`);
  const negatives = result.negativeCounts;
  const mean = negatives.reduce((sum, count) => sum + count, 0) / Math.max(1, negatives.length);
  const withAny = negatives.filter((count) => count > 0).length;
  lines.push(
    `  never-stored topics (${negatives.length}): mean results ${mean.toFixed(2)}, with any result ${withAny}/${negatives.length} (${((100 * withAny) / Math.max(1, negatives.length)).toFixed(0)} %)`,
  );
  return lines.join('\n');
}
