import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRemoteCore, type OpenedRemoteCore, readInfo } from '../../src/daemon/daemonLauncher.ts';
import { daemonAddressOf } from '../../src/daemon/daemonAddress.ts';
import type { RuntimeConfig } from '../../src/runtime/runtimeConfig.ts';

const root = new URL('../..', import.meta.url).pathname;
export const CLI = join(root, 'dist', 'cli.js');

export function sqliteConfig(dataDir: string, extra: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return { dataDir, backend: { kind: 'sqlite', dataDir }, embeddings: { kind: 'none' }, ...extra };
}

/** A window's view: connect (starting the daemon if needed) and open the core of `config`. */
export function openWindow(
  dataDir: string,
  options: { graceMs?: number; config?: Partial<RuntimeConfig>; userId?: string; env?: Record<string, string> } = {},
): Promise<OpenedRemoteCore> {
  return openRemoteCore({
    dataDir,
    command: {
      execPath: process.execPath,
      cliPath: CLI,
      graceMs: options.graceMs ?? 60_000,
      env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none', ...options.env },
    },
    hello: { config: sqliteConfig(dataDir, options.config), ...(options.userId ? { userId: options.userId } : {}) },
  });
}

export function daemonPid(dataDir: string): number | null {
  return readInfo(daemonAddressOf(dataDir).infoFile)?.pid ?? null;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * Stops the memory process of a data directory if one runs, waits for it to exit, then removes the
 * directory: a process still shutting down saves its index and checkpoints into the directory, and a
 * removal racing it failed with ENOTEMPTY (a clean-clone run at load 7).
 */
export async function removeDaemonDataDir(dataDir: string): Promise<void> {
  const pid = daemonPid(dataDir);
  if (pid !== null && isRunning(pid)) {
    process.kill(pid, 'SIGTERM');
    await waitUntil(() => !isRunning(pid), `memory process ${pid} to exit`);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** A suite's temporary data directories; `removeAll` (in its `after`) stops their memory processes and removes them. */
export function daemonDataDirs(defaultPrefix: string): { fresh(prefix?: string): string; removeAll(): Promise<void> } {
  const dirs: string[] = [];
  return {
    fresh(prefix = defaultPrefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of dirs.splice(0)) await removeDaemonDataDir(dir);
    },
  };
}

/** Polls a condition until it holds (no fixed sleep decides a test's outcome). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
