/**
 * The pruned keyword search against the exhaustive one, in one process, on the searches recall
 * makes: `bench/run.ts`'s synthetic corpus (seed 42, text only) in an embedded SQLite store, then
 * `--queries` recall queries drawn as run.ts draws its own (3–7 words of the same generator, its own
 * seed), whose LexicalIndex searches are recorded (terms with their expansion, and limit) and
 * replayed `--passes` times, each query searched both ways in alternating order, with a filter that
 * takes every document (recall's always passes one). Every replayed pair is checked equal (hits,
 * scores bit for bit, matched terms).
 *
 *   node bench/prunedSearch.ts [--size 100000] [--queries 300] [--passes 6] [--list-slower]
 *
 * Also: main-thread CPU of whole blocks of searches each way (all of them, and the heaviest 5% by
 * postings ten times over), and the same hits with a filter that refuses some.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryCore } from '../src/core/memoryCore.ts';
import type { WeightedTerm } from '../src/core/ports/memoryStore.ts';
import { LexicalIndex, type LexicalSearchHit } from '../src/stores/common/lexicalIndex.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { SeededRandom, syntheticMemory, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    passes: { type: 'string', default: '6' },
    // Lists the searches more than 20% slower pruned (wall), with what each pass read.
    'list-slower': { type: 'boolean' },
  },
});
const size = Number(values.size);
const queryCount = Number(values.queries);
const passes = Number(values.passes);

interface RecordedSearch {
  index: LexicalIndex;
  terms: WeightedTerm[];
  limit: number;
}

const dataDir = mkdtempSync(join(tmpdir(), 'fml-pruned-'));
const store = new SqliteMemoryStore({ dataDir });
const core = new MemoryCore({ store, embeddings: null });
await core.open();
const random = new SeededRandom(42);
const user = 'bench-user';
const base = Date.now() - size * 60_000;
const batch: Array<Promise<void>> = [];
for (let at = 0; at < size; at++) {
  const memory = syntheticMemory(random, user, at, new Date(base + at * 60_000));
  batch.push(store.insertMemory({ ...memory, embedding_model: null }, null));
  if (batch.length >= 500) await Promise.all(batch.splice(0));
}
await Promise.all(batch);
await core.recall({ user_id: user, query: 'warm up the index', limit: 10 }, { logAccess: false });

// Recall's searches, recorded as they are made.
const recorded: RecordedSearch[] = [];
const search = LexicalIndex.prototype.search;
LexicalIndex.prototype.search = function (this: LexicalIndex, terms, limit, accept) {
  recorded.push({ index: this, terms: terms.map((term) => ({ ...term })), limit });
  return search.call(this, terms, limit, accept);
};
const queries = new SeededRandom(7);
for (let at = 0; at < queryCount; at++) {
  const query = syntheticSentence(queries, 3 + Math.floor(queries.next() * 5));
  await core.recall({ user_id: user, query, limit: 10 }, { logAccess: false });
}
LexicalIndex.prototype.search = search;

const takeAll = (): boolean => true;
const postings = recorded.map(({ index, terms }) =>
  terms.reduce((total, { term, weight }) => total + (weight > 0 ? index.documentFrequency(term) : 0), 0),
);
// Equal with a filter that refuses some documents too, asked the same questions in the same order.
for (const { index, terms, limit } of recorded) {
  const asked: string[][] = [[], []];
  const refusing = (side: number) => (id: string) => (asked[side].push(id), !id.endsWith('7'));
  assert.deepStrictEqual(index.search(terms, limit, refusing(0)), index.searchExhaustive(terms, limit, refusing(1)));
  assert.deepStrictEqual(asked[0], asked[1]);
}
const exhaustive = recorded.map(() => 0);
const pruned = recorded.map(() => 0);
const work = recorded[0].index.searchWork;
const workBefore = { ...work };
for (let pass = 0; pass < passes; pass++) {
  recorded.forEach(({ index, terms, limit }, at) => {
    const runExhaustive = (): LexicalSearchHit[] => {
      const started = performance.now();
      const hits = index.searchExhaustive(terms, limit, takeAll);
      exhaustive[at] += performance.now() - started;
      return hits;
    };
    const runPruned = (): LexicalSearchHit[] => {
      const started = performance.now();
      const hits = index.search(terms, limit, takeAll);
      pruned[at] += performance.now() - started;
      return hits;
    };
    if ((pass + at) % 2 === 0) assert.deepStrictEqual(runPruned(), runExhaustive());
    else {
      const first = runExhaustive();
      assert.deepStrictEqual(runPruned(), first);
    }
  });
}

const workAfter = { ...work };
// Main-thread CPU of whole blocks of searches, one way then the other (alternating which first):
// process.threadCpuUsage moves in scheduler ticks on this VM, too coarse for one search.
const heavySet = [...recorded.keys()]
  .sort((a, b) => postings[b] - postings[a])
  .slice(0, Math.ceil(recorded.length / 20));
const cpu = { exhaustive: 0, pruned: 0, heavyExhaustive: 0, heavyPruned: 0 };
const block = (list: readonly number[], prunedWay: boolean, repeat: number): number => {
  const before = process.threadCpuUsage();
  for (let round = 0; round < repeat; round++)
    for (const at of list) {
      const { index, terms, limit } = recorded[at];
      if (prunedWay) index.search(terms, limit, takeAll);
      else index.searchExhaustive(terms, limit, takeAll);
    }
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
};
const everyQuery = [...recorded.keys()];
for (let pass = 0; pass < passes; pass++) {
  for (const prunedWay of pass % 2 === 0 ? [true, false] : [false, true]) {
    cpu[prunedWay ? 'pruned' : 'exhaustive'] += block(everyQuery, prunedWay, 1);
    cpu[prunedWay ? 'heavyPruned' : 'heavyExhaustive'] += block(heavySet, prunedWay, 10);
  }
}
const mean = (list: readonly number[]): number => list.reduce((total, value) => total + value, 0) / list.length;
const perSearch = (list: readonly number[], at: number): number => list[at] / passes;
const searches = recorded.length * passes;
console.log(
  `${recorded.length} recall searches of ${size.toLocaleString('en')} documents, ${passes} passes, load ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
console.log(
  `postings per search: mean ${Math.round(mean(postings))}, heaviest 5% mean ${Math.round(mean(heavySet.map((at) => postings[at])))}, terms mean ${mean(recorded.map(({ terms }) => terms.length)).toFixed(1)}`,
);
console.log(
  `pruned: ${workAfter.pruned - workBefore.pruned} of ${searches} searches; per search, cells added in full ${Math.round((workAfter.scannedCells - workBefore.scannedCells - postings.reduce((a, b) => a + b, 0) * passes) / searches)} (exhaustive ${Math.round(mean(postings))}), cells read for survivors ${Math.round((workAfter.boundCells - workBefore.boundCells + workAfter.survivorCells - workBefore.survivorCells) / searches)}, survivors scored ${Math.round((workAfter.survivors - workBefore.survivors) / searches)}`,
);
const slower = recorded.filter((_, at) => pruned[at] > exhaustive[at] * 1.2).length;
console.log(`searches more than 20% slower pruned: ${slower} of ${recorded.length}`);
if (values['list-slower']) {
  for (const [at, { index, terms, limit }] of recorded.entries()) {
    if (pruned[at] <= exhaustive[at] * 1.2) continue;
    const before = { ...index.searchWork };
    index.search(terms, limit, takeAll);
    const w = index.searchWork;
    console.log(
      `  postings ${postings[at]} terms ${terms.length}: first pass ${w.scannedCells - before.scannedCells}, bound ${w.boundCells - before.boundCells}, flagged ${w.survivorCells - before.survivorCells}, survivors ${w.survivors - before.survivors}; ${(exhaustive[at] / passes).toFixed(3)} against ${(pruned[at] / passes).toFixed(3)} ms`,
    );
  }
}
for (const [name, list] of [
  ['exhaustive', exhaustive],
  ['pruned', pruned],
] as const) {
  const each = recorded.map((_, at) => perSearch(list, at));
  const sorted = [...each].sort((a, b) => a - b);
  console.log(
    `${name}: mean ${mean(each).toFixed(3)} ms, heaviest 5% ${mean(heavySet.map((at) => each[at])).toFixed(3)} ms, p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}, p99 ${sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)].toFixed(3)} ms`,
  );
}
const perCpu = (total: number, count: number): string => (total / (passes * count)).toFixed(3);
console.log(
  `main-thread CPU per search (blocks): exhaustive ${perCpu(cpu.exhaustive, recorded.length)} ms, pruned ${perCpu(cpu.pruned, recorded.length)} ms; heaviest 5%: exhaustive ${perCpu(cpu.heavyExhaustive, heavySet.length * 10)} ms, pruned ${perCpu(cpu.heavyPruned, heavySet.length * 10)} ms`,
);
await core.close();
rmSync(dataDir, { recursive: true, force: true });
