/**
 * What one recall reads and costs, with answers that must not move: the LoCoMo development split
 * and both coding sets stored through the core (not MCP) with a stepped clock and no access log,
 * every question recalled with limit 50 in two passes. Prints a hash of every answer (all of it but
 * the random memory ids: each memory's stable id — dia_id or the set's id — its fields, scores,
 * score breakdown and why_matched, and the retrieval breakdown), the
 * full rows read per recall (getMemories ids, counted on the store) and the main-thread CPU per
 * recall (process.threadCpuUsage). Before/after check of issue 31 point 2: run it on both builds
 * (it imports only long-standing modules, so a copy runs against an older tree) and compare.
 *
 *   node bench/recallRowCost.ts
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import type { MemoryStore } from '../src/core/ports/memoryStore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { formatTurn, loadSamples, sessionsOf, turnMemory } from './locomo/locomoData.ts';
import { loadCodingSet } from './coding/codingData.ts';
import { loadProjectSet } from './coding/codingSet2.ts';

interface Question {
  user: string;
  query: string;
}

const threadCpuMs = (): number => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-rowcost-'));
  const sqlite = new SqliteMemoryStore({ dataDir });
  await sqlite.open();
  let rowsRead = 0;
  const store = new Proxy(sqlite, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'recordAccess') return () => Promise.resolve();
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'getMemories')
        return (userId: string, ids: readonly string[]) => {
          rowsRead += ids.length;
          return method(userId, ids);
        };
      return method;
    },
  }) as unknown as MemoryStore;
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const clock = { now: () => new Date((tick += 1000)) };
  const core = new MemoryCore({ store, clock, config: { neighbourRadius: 2 } });
  await core.open();
  const questions: Question[] = [];
  try {
    const samples = loadSamples();
    for (const sample of samples) {
      const user = `locomo-${sample.sample_id}`;
      for (const session of sessionsOf(sample))
        for (const turn of session.turns) await core.storeMemory(turnMemory(user, session, turn));
      for (const qa of sample.qa) questions.push({ user, query: qa.question });
    }
    const coding = loadCodingSet();
    const distractors = samples.find((sample) => sample.sample_id === 'conv-26');
    for (const session of distractors ? sessionsOf(distractors) : [])
      for (const turn of session.turns)
        await core.storeMemory({
          user_id: 'coding-dev',
          content: formatTurn(turn),
          memory_category: 'episodic',
          memory_subtype: 'conversation',
          metadata: { dia_id: turn.dia_id, session: session.session },
        });
    for (const memory of coding.memories)
      await core.storeMemory({
        user_id: 'coding-dev',
        content: memory.text,
        memory_category: memory.cat as never,
        memory_subtype: memory.sub as never,
        metadata: { bench_id: memory.id },
      });
    for (const query of [...coding.queries.map((entry) => entry.q), ...coding.negatives])
      questions.push({ user: 'coding-dev', query });
    const project = loadProjectSet();
    for (const memory of project.memories)
      await core.storeMemory({
        user_id: 'coding-dev-2',
        content: memory.text,
        memory_category: memory.cat as never,
        memory_subtype: memory.sub as never,
        metadata: { project: memory.project, bench_id: memory.id },
      });
    for (const query of [...project.queries.map((entry) => entry.q), ...project.negatives])
      questions.push({ user: 'coding-dev-2', query });

    console.log(
      `${questions.length} questions (LoCoMo dev, coding-dev, coding-dev-2), limit 50, stepped clock, no access log`,
    );
    for (let pass = 1; pass <= 2; pass++) {
      const hash = createHash('sha256');
      let cpu = 0;
      rowsRead = 0;
      let returned = 0;
      for (const question of questions) {
        await new Promise((resolve) => setImmediate(resolve));
        const before = threadCpuMs();
        const answer = await core.recall(
          { user_id: question.user, query: question.query, limit: 50 },
          { logAccess: false },
        );
        cpu += threadCpuMs() - before;
        returned += answer.memories.length;
        // Everything of the answer but the random memory ids: the stable id, scores, breakdowns, texts, counts.
        const { best_below_floor: best, ...breakdown } = answer.retrieval_breakdown;
        hash.update(
          JSON.stringify({
            memories: answer.memories.map(({ memory_id: _id, ...memory }) => [
              memory.metadata.dia_id ?? memory.metadata.bench_id,
              memory,
            ]),
            breakdown,
            best: best?.relevance_score ?? null,
          }),
        );
        hash.update('\n');
      }
      const n = questions.length;
      console.log(
        `pass ${pass}: answers ${hash.digest('hex').slice(0, 16)}; returned per recall ${(returned / n).toFixed(2)}; full rows read per recall ${(rowsRead / n).toFixed(2)}; main-thread CPU per recall ${(cpu / n).toFixed(3)} ms; load ${loadavg()
          .map((value) => value.toFixed(2))
          .join(' ')}`,
      );
    }
  } finally {
    await core.close();
    await sqlite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
