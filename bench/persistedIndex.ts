// `npm run bench:index [-- --sizes 10000,100000] [--vectors]`: the first recall of a fresh process, with the
// index built from the rows and with the persisted index (issue 20). For each size it loads a
// synthetic store, then runs each case in a new child process (nothing cached, as a fresh memory
// process or CLI would be) and reports: the first recall's time, where its index came from, the
// process's RSS after it, the time to write the persisted index at close, and the file's size.
// With --vectors every memory also has a 1,536-d vector (a deterministic test embedding), and the
// recall embeds its query, so the vector index is built or loaded as well.
// The load average is printed with the figures: on a shared machine they move with it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { ms } from './stats.ts';
import { HashingTestEmbeddings } from '../src/embeddings/hashingTestEmbeddings.ts';
import { loadSyntheticStore, SeededRandom, syntheticMemory } from './syntheticCorpus.ts';

const USER = 'index-user';
const QUERY = 'deploy the build server cache';
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};

interface Probe {
  openMs: number;
  firstRecallMs: number;
  /** CPU time of the process's main thread during the first recall: the work itself, whatever the machine's load. */
  firstRecallCpuMs: number;
  secondRecallMs: number;
  origin: string | null;
  rssMb: number;
  closeMs: number;
  hits: string[];
}

/** In a child: open the store, recall once (timed), recall again, close (timed: the save). */
const DIMS = 1536;

async function probe(dataDir: string, persisted: boolean, vectors: boolean): Promise<Probe> {
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes: persisted ? {} : false });
  const core = new MemoryCore({ store, embeddings: vectors ? new HashingTestEmbeddings(DIMS) : null });
  let started = performance.now();
  await core.open();
  const openMs = performance.now() - started;
  started = performance.now();
  const cpuBefore = process.threadCpuUsage();
  const first = await core.recall({ user_id: USER, query: QUERY, limit: 10 }, { logAccess: false });
  const firstRecallMs = performance.now() - started;
  const cpu = process.threadCpuUsage(cpuBefore);
  const firstRecallCpuMs = (cpu.user + cpu.system) / 1000;
  started = performance.now();
  await core.recall({ user_id: USER, query: 'rollback the staging release', limit: 10 }, { logAccess: false });
  const secondRecallMs = performance.now() - started;
  const origin = vectors
    ? `${store.indexOrigin(USER)} + vectors ${store.vectorIndexOrigin(USER, `hashing-test-${DIMS}`, DIMS)}`
    : store.indexOrigin(USER);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  started = performance.now();
  await core.close();
  return {
    openMs,
    firstRecallMs,
    firstRecallCpuMs,
    secondRecallMs,
    origin,
    rssMb,
    closeMs: performance.now() - started,
    hits: first.memories.map((memory) => memory.memory_id),
  };
}

function inChild(flags: string[]): Probe {
  const run = spawnSync(process.execPath, [new URL(import.meta.url).pathname, ...flags], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`child ${flags.join(' ')} failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Probe;
}

function indexBytes(dataDir: string): number {
  const dir = join(dataDir, 'memory.db-indexes');
  return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
}

/** The synthetic corpus with a test embedding of each memory's content, as a store with embeddings on holds it. */
async function loadWithVectors(dataDir: string, size: number): Promise<void> {
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes: false });
  await store.open();
  const embeddings = new HashingTestEmbeddings(DIMS);
  const random = new SeededRandom(42);
  const base = Date.now() - size * 60_000;
  const batch: Promise<void>[] = [];
  for (let index = 0; index < size; index++) {
    const memory = syntheticMemory(random, USER, index, new Date(base + index * 60_000));
    const [vector] = await embeddings.embed([memory.content]);
    batch.push(
      store.insertMemory(
        { ...memory, embedding_model: embeddings.model },
        { model: embeddings.model, vector: vector! },
      ),
    );
    if (batch.length >= 500) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  await store.close();
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

if (option('probe') !== undefined) {
  console.log(JSON.stringify(await probe(option('probe')!, option('persisted') === 'yes', args.includes('--vectors'))));
  process.exit(0);
}
if (option('load-into') !== undefined) {
  if (args.includes('--vectors')) await loadWithVectors(option('load-into')!, Number(option('size')));
  else await loadSyntheticStore(option('load-into')!, USER, Number(option('size')), 42);
  process.exit(0);
}

const withVectors = args.includes('--vectors') ? ['--vectors'] : [];
const sizes = (option('sizes') ?? '10000,100000').split(',').map(Number);
console.log(`machine: ${process.platform} ${process.arch}, Node ${process.version}`);
console.log(
  '| memories | case | first recall (ms) | its CPU time (ms) | index from | RSS after (MB) | close (ms) | second recall (ms) | load average (1, 5, 15 min) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const size of sizes) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-index-bench-'));
  try {
    const loaded = spawnSync(
      process.execPath,
      [new URL(import.meta.url).pathname, '--load-into', dataDir, '--size', String(size), ...withVectors],
      { stdio: 'inherit' },
    );
    if (loaded.status !== 0) throw new Error(`loading ${size} memories failed (exit ${loaded.status})`);
    const row = (label: string, result: Probe): void =>
      console.log(
        `| ${size.toLocaleString('en-US')} | ${label} | ${ms(result.firstRecallMs)} | ${ms(result.firstRecallCpuMs)} | ${result.origin} | ${Math.round(result.rssMb)} | ${ms(result.closeMs)} | ${ms(result.secondRecallMs)} | ${load()} |`,
      );
    const withoutFile = inChild(['--probe', dataDir, '--persisted', 'no', ...withVectors]);
    row('built from rows (persisted indexes off)', withoutFile);
    const building = inChild(['--probe', dataDir, '--persisted', 'yes', ...withVectors]);
    row('built from rows, then saved at close', building);
    const loadedFromFile = inChild(['--probe', dataDir, '--persisted', 'yes', ...withVectors]);
    row('loaded from the persisted index', loadedFromFile);
    if (JSON.stringify(loadedFromFile.hits) !== JSON.stringify(withoutFile.hits))
      throw new Error('the persisted index answered differently from the rows');
    console.log(
      `|  | persisted index file: ${(indexBytes(dataDir) / 1024 / 1024).toFixed(1)} MB; same top 10 either way |  |  |  |  |  |  |  |`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
