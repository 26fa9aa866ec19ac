import type { MemoryStore } from '../src/core/ports/memoryStore.ts';
import { FireboltStore } from '../src/stores/firebolt/fireboltStore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { startFireboltTestServer } from '../test/support/firebolt-server/server.ts';

export interface BenchBackendArgs {
  backend: string;
  fireboltUrl?: string;
}

/** `--backend sqlite|firebolt-core [--firebolt-url URL]` from argv, for both benchmarks. */
export function benchBackendArgs(argv: readonly string[]): BenchBackendArgs {
  const valueOf = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
  };
  const backend = valueOf('--backend') ?? 'sqlite';
  if (backend !== 'sqlite' && backend !== 'firebolt-core')
    throw new Error(`--backend must be sqlite or firebolt-core; got "${backend}"`);
  const fireboltUrl = valueOf('--firebolt-url');
  return { backend, ...(fireboltUrl ? { fireboltUrl } : {}) };
}

/**
 * The store a benchmark run measures. firebolt-core without a URL starts the protocol test
 * server (SQLite behind Firebolt's HTTP protocol) in this process, and says so: those figures
 * measure the store's SQL and protocol overhead, not a real Firebolt engine. Each run uses a
 * fresh database so runs against a real Core never mix.
 */
export async function openBenchStore(
  args: BenchBackendArgs,
  dataDir: string,
): Promise<{ store: MemoryStore; description: string; cleanup(): Promise<void> }> {
  if (args.backend === 'sqlite')
    return {
      store: new SqliteMemoryStore({ dataDir }),
      description: 'embedded SQLite',
      cleanup: async () => undefined,
    };
  const server = args.fireboltUrl ? null : await startFireboltTestServer({ dataDir });
  const url = args.fireboltUrl ?? server!.url;
  const database = `fml_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  return {
    store: new FireboltStore({ kind: 'core', url, database }),
    description: server
      ? `firebolt-core on the in-process Firebolt test server at ${url} (node:sqlite behind the Firebolt HTTP protocol; not a real Firebolt engine), database ${database}`
      : `firebolt-core at ${url}, database ${database}`,
    cleanup: async () => {
      await server?.close();
    },
  };
}
