// `node bench/firstRecall.ts --data-dir DIR --user ID [--repeat N] [--query TEXT]`: the CPU a fresh
// process spends before its first answer, split where it goes (issue 31, point 3). Each run is a new
// child process (nothing warm, as a memory process just started): it opens the store, loads the
// user's index (warmUp: the persisted index when there is one), then recalls twice, and reports the
// main thread's CPU time of each step (process.threadCpuUsage: the work itself, whatever the
// machine's load). The first recall's CPU beyond the second's is what a first call pays once: the
// lazily built tables and the code not yet optimised. Prints the medians of the runs, each run's
// figures and the load average. Beside each, a fresh process with no store times its first query
// expansion alone (queryConcepts), the step that builds the word tables' lookups. Nothing is stored, so the index file is left as it was.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { queryConcepts } from '../src/core/retrieval/queryConcepts.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { ms, percentile } from './stats.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};

interface Probe {
  openCpuMs: number;
  loadCpuMs: number;
  firstRecallCpuMs: number;
  secondRecallCpuMs: number;
  origin: string | null;
  hits: string[];
}

function cpuSince(before: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** In a child: each step's main-thread CPU time. */
async function probe(dataDir: string, user: string, query: string): Promise<Probe> {
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes: {} });
  const core = new MemoryCore({ store, embeddings: null });
  let before = process.threadCpuUsage();
  await core.open();
  const openCpuMs = cpuSince(before);
  before = process.threadCpuUsage();
  await core.warmUp(user);
  const loadCpuMs = cpuSince(before);
  before = process.threadCpuUsage();
  const first = await core.recall({ user_id: user, query, limit: 10 }, { logAccess: false });
  const firstRecallCpuMs = cpuSince(before);
  before = process.threadCpuUsage();
  await core.recall({ user_id: user, query: 'rollback the staging release', limit: 10 }, { logAccess: false });
  const secondRecallCpuMs = cpuSince(before);
  const origin = store.indexOrigin(user);
  await core.close();
  return {
    openCpuMs,
    loadCpuMs,
    firstRecallCpuMs,
    secondRecallCpuMs,
    origin,
    hits: first.memories.map((memory) => memory.memory_id),
  };
}

/**
 * In a child, with no store: the first query expansion alone (queryConcepts.ts), the part of the
 * first recall that builds its lookups from the word tables, then a second query's.
 */
function probeExpansion(query: string): { firstMs: number; secondMs: number } {
  let before = process.threadCpuUsage();
  queryConcepts(query);
  const firstMs = cpuSince(before);
  before = process.threadCpuUsage();
  queryConcepts('rollback the staging release');
  return { firstMs, secondMs: cpuSince(before) };
}

const dataDir = option('data-dir');
const user = option('user') ?? 'cold-user';
const query = option('query') ?? 'deploy the build server cache';
if (dataDir === undefined) throw new Error('--data-dir DIR is required: a store with a persisted index for --user');

if (args.includes('--probe-expansion')) {
  console.log(JSON.stringify(probeExpansion(query)));
  process.exit(0);
}
if (args.includes('--probe')) {
  console.log(JSON.stringify(await probe(dataDir, user, query)));
  process.exit(0);
}

/** One fresh child process running a probe; what it printed last. */
function inChild<T>(flag: string): T {
  const child = spawnSync(process.execPath, [new URL(import.meta.url).pathname, ...args, flag], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`child failed (exit ${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as T;
}

const repeat = Number(option('repeat') ?? 5);
const runs: Probe[] = [];
const expansions: Array<{ firstMs: number; secondMs: number }> = [];
// Alternated, so both probes meet the same moments of a shared machine.
for (let run = 0; run < repeat; run++) {
  runs.push(inChild<Probe>('--probe'));
  expansions.push(inChild('--probe-expansion'));
}
if (new Set(runs.map((run) => run.hits.join(','))).size !== 1) throw new Error('the runs answered differently');
const median = (pick: (run: Probe) => number): string => ms(percentile(runs.map(pick), 50));
console.log(`machine: ${process.platform} ${process.arch}, Node ${process.version}; index from: ${runs[0].origin}`);
console.log('| CPU (ms, median of runs) | open | load the index | first recall | second recall |');
console.log('|---|---|---|---|---|');
console.log(
  `| ${repeat} fresh processes | ${median((run) => run.openCpuMs)} | ${median((run) => run.loadCpuMs)} | ${median((run) => run.firstRecallCpuMs)} | ${median((run) => run.secondRecallCpuMs)} |`,
);
console.log(
  `| ${repeat} fresh processes, expansion alone (no store) | | | ${ms(
    percentile(
      expansions.map((run) => run.firstMs),
      50,
    ),
  )} | ${ms(
    percentile(
      expansions.map((run) => run.secondMs),
      50,
    ),
  )} |`,
);
for (const run of runs)
  console.log(
    `  run: open ${ms(run.openCpuMs)}, load ${ms(run.loadCpuMs)}, first ${ms(run.firstRecallCpuMs)}, second ${ms(run.secondRecallCpuMs)}`,
  );
console.log(
  `load average: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}; hits: ${runs[0].hits.length}`,
);
