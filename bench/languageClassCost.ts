/**
 * What the language class bridge (languageClassMembers.ts) costs a recall that names a class: a
 * synthetic store (bench/syntheticCorpus.ts, whose words include python, node, django), questions
 * "which programming language … <synthetic words>", asked in blocks with the table on and off, the
 * order of the two swapped each round (switching clears the expansion caches, so every block
 * expands its questions afresh). Main-thread CPU per recall (process.cpuUsage) and wall time.
 * Questions that name no class are not touched by the table (no lookup finds a class for them).
 *
 *   node bench/languageClassCost.ts [--size 100000] [--rounds 3] [--queries 100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { languageClassesForEvaluation } from '../src/core/text/vocabulary/languageClassMembers.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { latencySummary } from './stats.ts';
import { loadSyntheticStore, SeededRandom, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    queries: { type: 'string', default: '100' },
  },
});
const size = Number(values.size);
const user = 'bench-user';
const dataDir = mkdtempSync(join(tmpdir(), 'fml-class-cost-'));
await loadSyntheticStore(dataDir, user, size, 42);
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();
try {
  const random = new SeededRandom(7);
  const questions = Array.from(
    { length: Number(values.queries) },
    () => `which programming language ${syntheticSentence(random, 3 + Math.floor(random.next() * 5))}`,
  );
  await core.recall({ user_id: user, query: 'warm up the index', limit: 10 }, { logAccess: false });
  const samples = {
    on: { cpu: [] as number[], wall: [] as number[] },
    off: { cpu: [] as number[], wall: [] as number[] },
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const setting of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      languageClassesForEvaluation(setting === 'on');
      for (const query of questions) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        await core.recall({ user_id: user, query, limit: 10 }, { logAccess: false });
        samples[setting].wall.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        samples[setting].cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  languageClassesForEvaluation(true);
  const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
  console.log(
    `${size.toLocaleString('en')} memories, ${questions.length} questions naming "programming language" a block, ${values.rounds} rounds`,
  );
  for (const setting of ['off', 'on'] as const) {
    const wall = latencySummary(samples[setting].wall);
    console.log(
      `  table ${setting.padEnd(3)}  CPU per recall ${mean(samples[setting].cpu).toFixed(2)} ms   wall p50 ${wall.p50.toFixed(2)} p95 ${wall.p95.toFixed(2)} p99 ${wall.p99.toFixed(2)} ms`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}`,
  );
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
