// `npm run bench:stalls [-- --size N] [--import N]`: what the editor's thread feels while the memory layer works.
// Loads N synthetic memories (default 100,000), then drives the layer the way the extension does —
// through the background memory process over its socket — and records the calling thread's longest
// stall and event-loop delay during: the first recall, an import, an export (paged like the
// Export command), a maintenance run. The same steps run once more with the core in the calling
// process (the model before the daemon) for comparison. Also reports the daemon's RSS with one and
// three clients (windows), the calling process's RSS, and recall/store latency over the socket.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../src/core/portability/exportFormat.ts';
import type { CoreSurface } from '../src/core/coreSurface.ts';
import { openRemoteCore } from '../src/daemon/daemonLauncher.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { type StallReport, watchStalls } from './stallMonitor.ts';
import { latencySummary, ms } from './stats.ts';
import { loadSyntheticStore, SeededRandom, syntheticMemory } from './syntheticCorpus.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const SIZE = option('size', 100_000);
const IMPORT = option('import', 20_000);
const USER = 'stall-user';
const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

async function load(dataDir: string): Promise<void> {
  await loadSyntheticStore(dataDir, USER, SIZE, 42);
}

function importFile(count: number, seed: number): unknown[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const memory = syntheticMemory(random, USER, SIZE + index, new Date(Date.now() - index * 1000));
    return { ...memory, memory_id: `imp_${seed}_${index}`, deleted: false };
  });
}

interface Step {
  name: string;
  run: (core: CoreSurface) => Promise<unknown>;
}

const steps = (seed: number): Step[] => {
  // Made before the clock starts: generating the file is the benchmark's work, not the layer's.
  const memories = importFile(IMPORT, seed);
  return [
    {
      name: `first recall at ${SIZE.toLocaleString()}`,
      run: (core) =>
        core.recall({ user_id: USER, query: 'deploy the build server cache', limit: 10 }, { logAccess: false }),
    },
    {
      name: `import of ${IMPORT.toLocaleString()} (pages of 500)`,
      run: async (core) => {
        for (let offset = 0; offset < memories.length; offset += 500) {
          const page = memories.slice(offset, offset + 500);
          const file = {
            format: EXPORT_FORMAT,
            format_version: EXPORT_FORMAT_VERSION,
            exported_at: new Date().toISOString(),
            user_id: USER,
            counts: { memories: page.length, deleted_memories: 0, sessions: 0, working_items: 0 },
            memories: page,
            sessions: [],
            working_items: [],
          };
          await core.importMemories(USER, file);
        }
      },
    },
    {
      name: 'export (pages of 500, as the Export command)',
      run: async (core) => {
        let count = 0;
        for (let offset = 0; ; offset += 500) {
          const page = await core.listMemories({ filter: { user_id: USER }, sort: 'created', offset, limit: 500 });
          count += page.items.length;
          if (page.items.length < 500) break;
        }
        return count;
      },
    },
    { name: 'maintenance run', run: (core) => core.runMaintenance(USER) },
  ];
};

function row(name: string, report: StallReport, elapsedMs: number): string {
  return `| ${name} | ${(elapsedMs / 1000).toFixed(1)} s | ${ms(report.longestStallMs)} (${ms(report.longestStallCpuMs)} of it on CPU) | ${ms(report.longestBusyMs)} | ${ms(report.p99DelayMs)} | ${loadavg()
    .map((value) => value.toFixed(1))
    .join(', ')} |`;
}

async function runSteps(label: string, core: CoreSurface, seed: number): Promise<void> {
  console.log(
    `\n${label}\n| step | took | longest stall of the calling thread (ms) | longest CPU stretch of the calling thread (ms) | event-loop delay p99 (ms) | load average after |\n|---|---|---|---|---|---|`,
  );
  for (const step of steps(seed)) {
    const started = performance.now();
    const { report } = await watchStalls(() => step.run(core));
    console.log(row(step.name, report, performance.now() - started));
  }
}

async function latency(core: CoreSurface): Promise<void> {
  const recall: number[] = [];
  const store: number[] = [];
  for (let index = 0; index < 300; index++) {
    let started = performance.now();
    await core.recall({ user_id: USER, query: `build server cache ${index % 17}`, limit: 10 }, { logAccess: false });
    recall.push(performance.now() - started);
    started = performance.now();
    await core.storeMemory({
      user_id: USER,
      content: `Latency probe ${index}: the cache of build ${index} was warmed`,
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
    store.push(performance.now() - started);
  }
  const show = (name: string, samples: number[]): void => {
    const summary = latencySummary(samples);
    console.log(
      `  ${name}: p50 ${ms(summary.p50)} / p95 ${ms(summary.p95)} / p99 ${ms(summary.p99)} ms (${summary.n} calls)`,
    );
  };
  show('recall_memories', recall);
  show('store_memory', store);
}

/** Resolves once process `pid` is gone (the memory process exits after its grace period and saves its index). */
async function exited(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const loadOnly = args.indexOf('--load-into');
if (loadOnly >= 0) {
  await load(args[loadOnly + 1]!);
  process.exit(0);
}

const dataDir = mkdtempSync(join(tmpdir(), 'fml-stalls-'));
try {
  console.log(
    `machine: ${process.platform} ${process.arch}, Node ${process.version}; loading ${SIZE.toLocaleString()} memories…`,
  );
  const loadStarted = performance.now();
  // In a child process, so this one stays what an extension host is: small, holding no corpus.
  const loaded = spawnSync(
    process.execPath,
    [new URL(import.meta.url).pathname, '--size', String(SIZE), '--load-into', dataDir],
    { stdio: 'inherit' },
  );
  if (loaded.status !== 0) throw new Error(`loading the corpus failed (exit ${loaded.status})`);
  console.log(`loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
  const clientRssBefore = process.memoryUsage().rss;

  // The daemon model: this process plays the extension host.
  const command = {
    execPath: process.execPath,
    cliPath: CLI,
    graceMs: 1_000,
    env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none' },
  };
  const config = { dataDir, backend: { kind: 'sqlite' as const, dataDir }, embeddings: { kind: 'none' as const } };
  const openedAt = performance.now();
  // No userId in hello: nothing warms the index up, so the first recall pays the whole build (the worst case).
  const first = await openRemoteCore({ dataDir, command, hello: { config } });
  console.log(
    `memory process ${first.opened.pid} started and core open in ${Math.round(performance.now() - openedAt)} ms`,
  );
  await runSteps('Through the background memory process (the extension’s model):', first.core, 1);
  const one = await first.connection.status();
  const others = await Promise.all([
    openRemoteCore({ dataDir, command, hello: { config } }),
    openRemoteCore({ dataDir, command, hello: { config } }),
  ]);
  await Promise.all(
    others.map((window) =>
      window.core.recall({ user_id: USER, query: 'second window', limit: 5 }, { logAccess: false }),
    ),
  );
  const three = await first.connection.status();
  console.log(
    `\nmemory process RSS: ${mb(one.rssBytes)} with one window, ${mb(three.rssBytes)} with three (${three.stores} store, ${three.cores} core)`,
  );
  console.log(
    `calling process RSS: ${mb(clientRssBefore)} before, ${mb(process.memoryUsage().rss)} after (the editor-side cost)`,
  );
  console.log('\nlatency over the socket (300 calls each, after the first build):');
  await latency(first.core);
  for (const window of [first, ...others]) window.connection.close();

  // Warm start: a window joining a process that already built the index (warm-up on hello with the user).
  const warm = await openRemoteCore({ dataDir, command, hello: { config, userId: USER } });
  const warmRecall = performance.now();
  await warm.core.recall({ user_id: USER, query: 'first recall of a new window', limit: 10 }, { logAccess: false });
  console.log(`\nfirst recall of a window joining the running process: ${ms(performance.now() - warmRecall)} ms`);
  warm.connection.close();

  // A cold start after the process exited: the index it saved at exit is loaded, not rebuilt.
  await exited(first.opened.pid);
  const cold = await openRemoteCore({ dataDir, command, hello: { config } });
  const { report: coldReport, value: coldMs } = await watchStalls(async () => {
    const started = performance.now();
    await cold.core.recall({ user_id: USER, query: 'deploy the build server cache', limit: 10 }, { logAccess: false });
    return performance.now() - started;
  });
  const coldStatus = await cold.connection.status();
  console.log(
    `first recall of a new memory process with the persisted index: ${ms(coldMs)} ms (longest stall of the calling thread ${ms(coldReport.longestStallMs)} ms, p99 ${ms(coldReport.p99DelayMs)} ms; memory process RSS ${mb(coldStatus.rssBytes)}; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(', ')})`,
  );
  cold.connection.close();
  await exited(cold.opened.pid);

  // The previous model for comparison: the core in the calling process.
  const rssBefore = process.memoryUsage().rss;
  const local = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
  await local.open();
  await runSteps('In the calling process (the model before the memory process):', local, 2);
  console.log(`\ncalling process RSS grew by ${mb(process.memoryUsage().rss - rssBefore)} with the core in process`);
  console.log('\nlatency in process (300 calls each):');
  await latency(local);
  await local.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
