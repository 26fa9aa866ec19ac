// `npm run bench:cold [-- --size N | --data-dir DIR --user ID]`: the first recall of a memory process
// started cold, as a window's first recall after the process exited, measured the way the extension
// meets it: through the socket, with the calling thread watched. Run 1 starts a process on a store
// whose persisted index is missing or stale (it builds from the rows and saves the index when it
// exits); run 2 starts a new process on the same store, which loads the persisted index. Between the
// runs the first process exits after its 1 s grace period. Prints the load average with each figure.
// `--cli PATH` runs another build's CLI (the cli.js of an earlier build's dist/, with the cl100k_base.ranks beside it) for a before/after pair;
// `--repeat N` starts N processes on the persisted index and prints their medians. Each window says
// who it is in its hello, as the extension's does, so the process starts loading that user's index then.
// `--evict-index` (Linux) drops the persisted index files from the page cache before each run-2 start
// (`dd iflag=nocache count=0`), as after a reboot or a long idle, when the file is read from the disk.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRemoteCore } from '../src/daemon/daemonLauncher.ts';
import { cpuMsOf, pageFaultsOf } from './serverProcess.ts';
import { watchStalls } from './stallMonitor.ts';
import { ms, percentile } from './stats.ts';
import { loadSyntheticStore } from './syntheticCorpus.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const CLI = option('cli') ?? new URL('../dist/cli.js', import.meta.url).pathname;
const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

if (option('load-into') !== undefined) {
  await loadSyntheticStore(option('load-into')!, option('user')!, Number(option('size')), 42);
  process.exit(0);
}

/** Resolves once process `pid` is gone (the memory process saves its index as it exits). */
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

const user = option('user') ?? 'cold-user';
const evictIndex = args.includes('--evict-index');
if (evictIndex && process.platform !== 'linux') throw new Error('--evict-index drops pages with GNU dd: Linux only.');

/** Drops the data directory's persisted index files from the page cache, so the next start reads them from the disk. */
function evictIndexFiles(dir: string): void {
  const indexDir = join(dir, 'memory.db-indexes');
  for (const name of readdirSync(indexDir).filter((file) => file.endsWith('.fmlidx'))) {
    const dropped = spawnSync('dd', [`if=${join(indexDir, name)}`, 'iflag=nocache', 'count=0', 'status=none']);
    if (dropped.status !== 0)
      throw new Error(`dd could not drop ${name} from the page cache: ${dropped.stderr.toString()}`);
  }
}

const ownDir = option('data-dir') === undefined;
const dataDir = option('data-dir') ?? mkdtempSync(join(tmpdir(), 'fml-cold-'));
try {
  if (ownDir) {
    const size = Number(option('size') ?? 100_000);
    console.log(`loading ${size.toLocaleString('en-US')} memories…`);
    const loaded = spawnSync(
      process.execPath,
      [new URL(import.meta.url).pathname, '--load-into', dataDir, '--user', user, '--size', String(size)],
      { stdio: 'inherit' },
    );
    if (loaded.status !== 0) throw new Error(`loading failed (exit ${loaded.status})`);
  }
  console.log(
    `machine: ${process.platform} ${process.arch}, Node ${process.version}${evictIndex ? '; index files dropped from the page cache before each run-2 start' : ''}`,
  );
  console.log(
    '| run | start to first answer (ms) | first recall through the socket (ms) | longest stall of the calling thread (ms) | its longest CPU stretch (ms) | p99 delay (ms) | memory process RSS | memory process CPU since it started (ms) | its page faults | RSS, CPU 5 s later (ms) | load average |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const command = {
    execPath: process.execPath,
    cliPath: CLI,
    graceMs: 1_000,
    env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none' },
  };
  const config = { dataDir, backend: { kind: 'sqlite' as const, dataDir }, embeddings: { kind: 'none' as const } };
  // `--repeat N` starts N processes on the persisted index (run 2), for a median on a noisy machine.
  const repeat = Number(option('repeat') ?? 1);
  const persisted: {
    answeredMs: number;
    processCpuMs: number;
    faults: number;
    rss: number;
    settledRss: number;
    settledCpuMs: number;
  }[] = [];
  const labels = [
    '1: new process, index from the rows (or a stale file)',
    ...Array.from({ length: repeat }, () => '2: new process, persisted index'),
  ];
  for (const label of labels) {
    if (evictIndex && label.startsWith('2')) evictIndexFiles(dataDir);
    // From the spawn (the window finds no process) through the answer: what the user waits for.
    const spawned = performance.now();
    const window = await openRemoteCore({ dataDir, command, hello: { config, userId: user } });
    const { value: recallMs, report } = await watchStalls(async () => {
      const started = performance.now();
      await window.core.recall(
        { user_id: user, query: 'deploy the build server cache', limit: 10 },
        { logAccess: false },
      );
      return performance.now() - started;
    });
    const answeredMs = performance.now() - spawned;
    const status = await window.connection.status();
    // Opening the store, loading (or building) the index and the first recall: what a cold start costs the box.
    const processCpuMs = cpuMsOf(status.pid);
    const faults = pageFaultsOf(status.pid);
    // What the process holds once it settles: a loaded index makes the rest of its metas a second
    // after the first recall (MetaTable.makeRestLater), so the figure right after the answer is not all.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const settled = await window.connection.status();
    const settledCpuMs = cpuMsOf(status.pid);
    console.log(
      `| ${label} | ${ms(answeredMs)} | ${ms(recallMs)} | ${ms(report.longestStallMs)} | ${ms(report.longestBusyMs)} | ${ms(report.p99DelayMs)} | ${mb(status.rssBytes)} | ${ms(processCpuMs)} | ${faults.toLocaleString('en-US')} | ${mb(settled.rssBytes)}, ${ms(settledCpuMs)} | ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')} |`,
    );
    if (label.startsWith('2')) {
      persisted.push({
        answeredMs,
        processCpuMs,
        faults,
        rss: status.rssBytes,
        settledRss: settled.rssBytes,
        settledCpuMs,
      });
    }
    window.connection.close();
    await exited(window.opened.pid);
  }
  if (repeat > 1) {
    const median = (pick: (run: (typeof persisted)[number]) => number): number => percentile(persisted.map(pick), 50);
    console.log(
      `median of ${repeat} run-2 starts: start to first answer ${ms(median((run) => run.answeredMs))} ms, ` +
        `CPU ${ms(median((run) => run.processCpuMs))} ms, ${median((run) => run.faults).toLocaleString('en-US')} page faults, RSS ${mb(median((run) => run.rss))}; ` +
        `5 s later RSS ${mb(median((run) => run.settledRss))}, CPU ${ms(median((run) => run.settledCpuMs))} ms`,
    );
  }
} finally {
  if (ownDir) rmSync(dataDir, { recursive: true, force: true });
}
