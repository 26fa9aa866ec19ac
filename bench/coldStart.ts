// `npm run bench:cold [-- --size N | --data-dir DIR --user ID]`: the first recall of a memory process
// started cold, as a window's first recall after the process exited, measured the way the extension
// meets it: through the socket, with the calling thread watched. Run 1 starts a process on a store
// whose persisted index is missing or stale (it builds from the rows and saves the index when it
// exits); run 2 starts a new process on the same store, which loads the persisted index. Between the
// runs the first process exits after its 1 s grace period. Prints the load average with each figure.
// `--cli PATH` runs another build's CLI (a copy of an earlier dist/cli.js) for a before/after pair.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRemoteCore } from '../src/daemon/daemonLauncher.ts';
import { cpuMsOf } from './serverProcess.ts';
import { watchStalls } from './stallMonitor.ts';
import { ms } from './stats.ts';
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
  console.log(`machine: ${process.platform} ${process.arch}, Node ${process.version}`);
  console.log(
    '| run | first recall through the socket (ms) | longest stall of the calling thread (ms) | its longest CPU stretch (ms) | p99 delay (ms) | memory process RSS | memory process CPU since it started (ms) | load average |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const command = {
    execPath: process.execPath,
    cliPath: CLI,
    graceMs: 1_000,
    env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none' },
  };
  const config = { dataDir, backend: { kind: 'sqlite' as const, dataDir }, embeddings: { kind: 'none' as const } };
  for (const label of ['1: new process, index from the rows (or a stale file)', '2: new process, persisted index']) {
    const window = await openRemoteCore({ dataDir, command, hello: { config } });
    const { value: recallMs, report } = await watchStalls(async () => {
      const started = performance.now();
      await window.core.recall(
        { user_id: user, query: 'deploy the build server cache', limit: 10 },
        { logAccess: false },
      );
      return performance.now() - started;
    });
    const status = await window.connection.status();
    // Opening the store, loading (or building) the index and the first recall: what a cold start costs the box.
    const processCpuMs = cpuMsOf(status.pid);
    console.log(
      `| ${label} | ${ms(recallMs)} | ${ms(report.longestStallMs)} | ${ms(report.longestBusyMs)} | ${ms(report.p99DelayMs)} | ${mb(status.rssBytes)} | ${ms(processCpuMs)} | ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')} |`,
    );
    window.connection.close();
    await exited(window.opened.pid);
  }
} finally {
  if (ownDir) rmSync(dataDir, { recursive: true, force: true });
}
