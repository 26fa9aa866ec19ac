/**
 * The second coding development set (../shared/data/README.md, coding-dev-2.json): one developer's
 * memories across several projects, questions asked in other words (kinds as in the first set plus
 * `near`), and near-miss negatives about topics stored only for another project. Scored as its
 * README says: every memory stored for one user with `metadata: {project, bench_id}`, no other
 * distractors; queries with limit 10 and min_similarity 0 (R@1/@5/@10 per kind); negatives with the
 * default options (how many results come back). Loaded from shared/ at run time, never shipped.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk } from '../../test/support/testCore.ts';
import { codingMemory } from './codingData.ts';

export interface ProjectMemory {
  id: string;
  project: string;
  cat: string;
  sub: string;
  text: string;
}
export interface ProjectQuery {
  id: string;
  q: string;
  target: string;
  kind: string;
}
export interface ProjectSet {
  memories: ProjectMemory[];
  queries: ProjectQuery[];
  negatives: string[];
}

/** A memory of the second set as its README says to store it: with `metadata: {project, bench_id}`. */
export function projectMemory(userId: string, memory: ProjectMemory) {
  return { ...codingMemory(userId, memory), metadata: { project: memory.project, bench_id: memory.id } };
}

/** Kinds of the second set, in the order tables print them. */
export const PROJECT_KINDS = ['lex', 'morph', 'syn', 'hyper', 'para', 'near'] as const;

export function loadProjectSet(): ProjectSet {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const path = process.env.CODING_SET_2_PATH ?? resolve(root, '../shared/data/coding-dev-2.json');
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
    memories: ProjectMemory[];
    queries: ProjectQuery[];
    negatives: Array<{ q: string }>;
  };
  return { memories: parsed.memories, queries: parsed.queries, negatives: parsed.negatives.map((item) => item.q) };
}

/** One query's outcome: the target's rank (0-based; -1 when not in the top 10). */
export interface ProjectQueryResult {
  query: ProjectQuery;
  rank: number;
}

export interface ProjectSetResult {
  queries: ProjectQueryResult[];
  negativeCounts: number[];
  /** Negatives whose results all say they are weak (partial): the README's "only results marked weak". */
  negativesOnlyWeak: number;
}

export async function runProjectSet(
  client: Client,
  set: ProjectSet,
  user = 'coding-dev-2',
  onlyQueries?: ReadonlySet<string>,
): Promise<ProjectSetResult> {
  const idOf = new Map<string, string>();
  for (const memory of set.memories) {
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', projectMemory(user, memory));
    idOf.set(stored.memory_id, memory.id);
  }
  const queries: ProjectQueryResult[] = [];
  for (const query of set.queries) {
    if (onlyQueries && !onlyQueries.has(query.id)) continue;
    await new Promise((resolve) => setImmediate(resolve));
    const result = await callOk<{ memories: Array<{ memory_id: string }> }>(client, 'recall_memories', {
      user_id: user,
      query: query.q,
      limit: 10,
      min_similarity: 0,
    });
    const ranked = result.memories.map((memory) => idOf.get(memory.memory_id));
    queries.push({ query, rank: ranked.indexOf(query.target) });
  }
  const negativeCounts: number[] = [];
  let negativesOnlyWeak = 0;
  for (const question of set.negatives) {
    const result = await callOk<{ memories: Array<{ score_breakdown: { signals: string[] } }> }>(
      client,
      'recall_memories',
      { user_id: user, query: question, explain: true },
    );
    negativeCounts.push(result.memories.length);
    if (
      result.memories.length > 0 &&
      result.memories.every((memory) => memory.score_breakdown.signals.includes('partial'))
    )
      negativesOnlyWeak++;
  }
  return { queries, negativeCounts, negativesOnlyWeak };
}

/** Percent of `results` whose target is within the first k. */
export function recallAt(results: readonly ProjectQueryResult[], k: number): number {
  if (results.length === 0) return 0;
  return (100 * results.filter((result) => result.rank >= 0 && result.rank < k).length) / results.length;
}
