import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * One `fml serve --http` process of the load benchmark, and what the benchmark reads of it from
 * /proc: resident memory and CPU time. Reading /proc costs the server nothing, unlike asking it.
 */
export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  mcpUrl: string;
}

export interface ServerLaunch {
  cliPath: string;
  dataDir: string;
  token: string;
  /** Extra Node flags for the server, e.g. --cpu-prof. */
  nodeFlags: readonly string[];
}

export async function startServer(launch: ServerLaunch): Promise<ServerProcess> {
  const args = [
    ...launch.nodeFlags,
    launch.cliPath,
    'serve',
    '--http',
    '--any-user',
    '--port',
    '0',
    '--data-dir',
    launch.dataDir,
    '--rate-limit',
    '0',
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FML_TOKEN: launch.token, FML_EMBEDDING_PROVIDER: 'none' },
  });
  let out = '';
  const mcpUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server printed no endpoint in 20 s: ${out}`)), 20_000);
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}: ${out}`));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /endpoint:\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
    child.once('exit', onExit);
  });
  return { child, pid: child.pid!, mcpUrl };
}

/** SIGTERM, then wait: the CLI closes its store and exits, which also writes a --cpu-prof profile. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

// Linux reports utime and stime in clock ticks of USER_HZ, which is 100 on every Linux ABI Node runs on.
const TICKS_PER_SECOND = 100;

/**
 * The same for the process's main thread alone (its task id is the pid): the thread that runs the
 * requests. The process's figure adds V8's compiler and garbage-collector helper threads and
 * the WAL checkpointer's worker, which `npm run bench`'s thread clock does not count.
 */
export function mainThreadCpuMsOf(pid: number): number {
  const fields = statFieldsOf(pid, `/proc/${pid}/task/${pid}/stat`);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** /proc/PID/stat's fields after the command name, which may contain spaces and parentheses. */
function statFieldsOf(pid: number, path = `/proc/${pid}/stat`): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU time the process has used so far, in milliseconds. */
export function cpuMsOf(pid: number): number {
  const fields = statFieldsOf(pid);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/**
 * Page faults the process has taken so far (minor, served from memory, and major, read from disk).
 * A first touch of each 4 KB page is one; on a VM whose host backs memory lazily each costs 15–16 µs,
 * so a fresh process's faults explain much of its start.
 */
export function pageFaultsOf(pid: number): number {
  const fields = statFieldsOf(pid);
  return Number(fields[7]) + Number(fields[9]);
}
