import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeQuery } from '../../../src/core/text/analyzer.ts';
import { SqliteMemoryStore } from '../../../src/stores/sqlite/sqliteStore.ts';
import { MODEL, embedding, makeMemory, randomUnitVector, seededRandom, vectorNear } from '../../contract/fixtures.ts';

/**
 * Times searchVector / searchLexical through the public store API:
 * `node test/stores/support/searchTimings.ts <rows> <dims> [queries]`.
 */
const rows = Number(process.argv[2] ?? 10_000);
const dims = Number(process.argv[3] ?? 384);
const queries = Number(process.argv[4] ?? 200);

const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x`);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]): string {
  return `p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`;
}

const dataDir = await mkdtemp(join(tmpdir(), 'fml-timings-'));
const store = new SqliteMemoryStore({ dataDir });
await store.open();
const random = seededRandom(99);
const user = 'bench-user';
const planted: { query: Float32Array; id: string }[] = [];
let started = performance.now();
for (let i = 0; i < rows; i++) {
  const words = Array.from(
    { length: 10 + Math.floor(random() * 60) },
    () => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)],
  );
  let vector = randomUnitVector(dims, random);
  if (i % Math.floor(rows / 100) === 3) {
    const query = randomUnitVector(dims, random);
    vector = vectorNear(query, 0.85, random);
    planted.push({ query, id: `m${i}` });
  }
  await store.insertMemory(
    makeMemory(user, { memory_id: `m${i}`, content: words.join(' '), embedding_model: MODEL }),
    embedding(vector),
  );
}
console.log(`${rows} x ${dims}: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

started = performance.now();
await store.searchVector({ filter: { user_id: user }, vector: planted[0].query, model: MODEL, limit: 10 });
console.log(`vector index build (first search): ${(performance.now() - started).toFixed(0)} ms`);
started = performance.now();
await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery('w1x'), limit: 10 });
console.log(`lexical index build (first search): ${(performance.now() - started).toFixed(0)} ms`);

const vectorTimes: number[] = [];
let found = 0;
let method = '';
for (let q = 0; q < queries; q++) {
  const target = planted[q % planted.length];
  const t0 = performance.now();
  const hits = await store.searchVector({ filter: { user_id: user }, vector: target.query, model: MODEL, limit: 10 });
  vectorTimes.push(performance.now() - t0);
  if (hits[0]?.memory_id === target.id) found++;
  method = hits[0]?.method ?? method;
}
const filteredTimes: number[] = [];
for (let q = 0; q < queries; q++) {
  const t0 = performance.now();
  await store.searchVector({
    filter: { user_id: user, pinned: false, min_confidence: 0.5 },
    vector: randomUnitVector(dims, random),
    model: MODEL,
    limit: 10,
  });
  filteredTimes.push(performance.now() - t0);
}
const lexicalTimes: number[] = [];
for (let q = 0; q < queries; q++) {
  const text = Array.from({ length: 4 }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');
  const t0 = performance.now();
  await store.searchLexical({ filter: { user_id: user }, terms: analyzeQuery(text), limit: 10 });
  lexicalTimes.push(performance.now() - t0);
}
const listTimes: number[] = [];
for (let q = 0; q < 50; q++) {
  const t0 = performance.now();
  await store.listMemories({ filter: { user_id: user }, sort: 'importance', offset: q * 20, limit: 20 });
  listTimes.push(performance.now() - t0);
}
console.log(`searchVector (${method}): ${summary(vectorTimes)}; planted top-1 ${found}/${queries}`);
console.log(`searchVector with filter: ${summary(filteredTimes)}`);
console.log(`searchLexical: ${summary(lexicalTimes)}`);
console.log(`listMemories: ${summary(listTimes)}`);
console.log(
  `rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, storage ${((await store.stats(user)).storage_bytes! / 1e6).toFixed(0)} MB`,
);
await store.close();
await rm(dataDir, { recursive: true, force: true });
