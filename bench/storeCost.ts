/**
 * What one store_memory costs on a large store, and what it answers: main-thread CPU per call
 * (process.threadCpuUsage) over `--calls` stores into one user's store of `--size` synthetic
 * memories (built here) or into a copy of `--data-dir` (never written to), and a digest of every
 * answer, so two builds can be shown to answer alike while one costs less. The stores mix what
 * store_memory meets: plain notes of every category (episodic ones skip the contradiction search),
 * short statements of a few settings (so later ones contradict earlier ones), their negations, and
 * repeats of earlier contents (merged as duplicates). Persisted-index saves are held off, so the
 * figure is the calls' own work.
 *
 *   node bench/storeCost.ts --size 10000 [--calls 1000]
 *   node bench/storeCost.ts --data-dir /tmp/m-new --user cold-user [--calls 1000] [--pause-ms 3000]
 *
 * `--pause-ms` waits before the timed calls and prints the process id, so `perf record -p PID` can
 * attach (run with `NODE_OPTIONS=--perf-basic-prof`).
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { StoreMemoryOutput } from '../src/core/api/longTermApi.ts';
import type { MemoryCategory } from '../src/core/domain/taxonomy.ts';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { percentile } from './stats.ts';
import { SeededRandom, syntheticMemory, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    'data-dir': { type: 'string' },
    user: { type: 'string', default: 'cold-user' },
    calls: { type: 'string', default: '1000' },
    'pause-ms': { type: 'string', default: '0' },
  },
});
const calls = Number(values.calls);
const user = values.user;

const SUBJECTS = ['the api port', 'the node version', 'the default branch', 'the request timeout', 'our database'];
const SUBJECT_VALUES = ['8080', '3000', '20', '22', 'main', 'develop', '30 seconds', '60 seconds', 'postgres', 'mysql'];
const KINDS: Array<[MemoryCategory, string]> = [
  ['semantic', 'project'],
  ['preference', 'style'],
  ['procedural', 'workflow'],
  ['episodic', 'event'],
];

/** The contents and classes of the timed stores: seeded, the same for every build. */
function storeInputs(random: SeededRandom): Array<{ content: string; category: MemoryCategory; subtype: string }> {
  const inputs: Array<{ content: string; category: MemoryCategory; subtype: string }> = [];
  for (let call = 0; call < calls; call++) {
    const roll = random.next();
    const [category, subtype] = KINDS[call % KINDS.length];
    let content: string;
    if (roll < 0.15) content = `${random.pick(SUBJECTS)} is ${random.pick(SUBJECT_VALUES)}`;
    else if (roll < 0.2) content = `we do not use ${random.pick(SUBJECT_VALUES)} for ${random.pick(SUBJECTS)}`;
    else if (roll < 0.25) content = `we use ${random.pick(SUBJECT_VALUES)} for ${random.pick(SUBJECTS)}`;
    else if (roll < 0.33 && inputs.length > 0) content = random.pick(inputs).content;
    else content = `${syntheticSentence(random, 8 + Math.floor(random.next() * 30))} (store ${call})`;
    inputs.push({ content, category, subtype });
  }
  return inputs;
}

async function openStore(): Promise<{ dataDir: string; store: SqliteMemoryStore; size: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-storecost-'));
  // Not held off for good: a timer longer than 2^31 - 1 ms fires at once (Node), so 2e9 ms, about 23 days.
  const persistedIndexes = { saveIntervalMs: 2e9, saveAfterBuildMs: 2e9 };
  if (values['data-dir']) {
    cpSync(values['data-dir'], dataDir, { recursive: true });
    rmSync(join(dataDir, 'daemon'), { recursive: true, force: true });
    return {
      dataDir,
      store: new SqliteMemoryStore({ dataDir, persistedIndexes }),
      size: `copy of ${values['data-dir']}`,
    };
  }
  const size = Number(values.size);
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes });
  await store.open();
  const random = new SeededRandom(7);
  const base = Date.now() - size * 60_000;
  const batch: Array<Promise<void>> = [];
  for (let index = 0; index < size; index++) {
    batch.push(store.insertMemory(syntheticMemory(random, user, index, new Date(base + index * 60_000)), null));
    if (batch.length >= 500) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  return { dataDir, store, size: `${size.toLocaleString('en')} synthetic memories` };
}

/** An answer without what differs between runs: ids made in this run are named by the call that made them. */
function describe(output: StoreMemoryOutput, madeBy: Map<string, number>): string {
  const name = (id: string): string => (madeBy.has(id) ? `call ${madeBy.get(id)}` : id);
  return JSON.stringify({
    memory: name(output.memory_id),
    similar: output.similar_existing
      ? { ...output.similar_existing, memory_id: name(output.similar_existing.memory_id) }
      : null,
    contradicts: output.contradicts ? { ...output.contradicts, memory_id: name(output.contradicts.memory_id) } : null,
    entities: output.entities_extracted,
  });
}

const { dataDir, store, size } = await openStore();
const core = new MemoryCore({ store, embeddings: null });
await core.open();
await core.warmUp(user);
await core.recall({ user_id: user, query: 'warm up the index', limit: 10 }, { logAccess: false });
const inputs = storeInputs(new SeededRandom(31));
const pauseMs = Number(values['pause-ms']);
if (pauseMs > 0) {
  console.log(`pid ${process.pid}: timed calls start in ${pauseMs} ms`);
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
const cpu: number[] = [];
const madeBy = new Map<string, number>();
const digest = createHash('sha256');
const outcomes = { merged: 0, similar: 0, contradicts: 0 };
for (const [call, input] of inputs.entries()) {
  // A transport hands control back to the event loop between calls.
  await new Promise((resolve) => setImmediate(resolve));
  const before = process.threadCpuUsage();
  const output = await core.storeMemory({
    user_id: user,
    content: input.content,
    memory_category: input.category,
    memory_subtype: input.subtype,
  });
  const used = process.threadCpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  if (!madeBy.has(output.memory_id)) madeBy.set(output.memory_id, call);
  else outcomes.merged++;
  if (output.similar_existing) outcomes.similar++;
  if (output.contradicts) outcomes.contradicts++;
  digest.update(`${describe(output, madeBy)}\n`);
}
await core.close();
rmSync(dataDir, { recursive: true, force: true });
const mean = cpu.reduce((total, value) => total + value, 0) / cpu.length;
const sorted = [...cpu].sort((a, b) => a - b);
console.log(
  `store_memory into ${size} (user ${user}), ${calls} calls: CPU per call mean ${mean.toFixed(3)} ms, p50 ${percentile(sorted, 50).toFixed(3)}, p95 ${percentile(sorted, 95).toFixed(3)}; ` +
    `merged ${outcomes.merged}, similar_existing ${outcomes.similar}, contradicts ${outcomes.contradicts}; answers ${digest.digest('hex').slice(0, 16)}; load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}`,
);
