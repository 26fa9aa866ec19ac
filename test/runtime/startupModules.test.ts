import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/*
 * A fresh memory process pays for every module it initialises before its first answer (docs/benchmarks.md,
 * "A first answer"). zod (about 15 ms and 8 MB of a cold start) serves the MCP tools' schemas only:
 * the stores' row decoders and the export file's reader check values against the records' value
 * lists, not their schemas. The child resolves modules from the sources; in the CLI bundle the MCP
 * server's modules are imported when a window first asks for an endpoint (mcpEndpoints.ts).
 */
const CHILD = fileURLToPath(new URL('../fixtures/startup/recallModules.ts', import.meta.url));

interface Loaded {
  atStart: string[];
  afterRecall: string[];
  afterImport: string[];
  afterToolSchemas: string[];
  builtinsAtStart: string[];
  builtinsAfterRecall: string[];
  builtinsAfterUse: string[];
}

/**
 * Node's modules a memory process does not need for its first answer, and the CPU each costs at a
 * start on this project's VM when loaded (docs/benchmarks.md, "Node's own modules at a process start"):
 * https with TLS 30–45 ms (Firebolt Cloud), http 10 ms (Firebolt Core; the MCP HTTP server is
 * imported when an endpoint is asked for), child_process 10 ms with dgram (git, for repository
 * memories), worker_threads 6–8 ms (the WAL checkpointer's worker, started after 16 commits).
 */
const NOT_AT_START = ['node:https', 'node:tls', 'node:http', 'node:child_process', 'node:dgram', 'node:worker_threads'];

const isZod = (url: string): boolean => url.includes('/node_modules/zod/');

describe('what a fresh memory process loads before its first answer', () => {
  const loaded = JSON.parse(execFileSync(process.execPath, [CHILD], { encoding: 'utf8', timeout: 60_000 })) as Loaded;

  it('starts, stores, recalls and imports without loading zod', () => {
    const loadedAtStart = (file: string): boolean => loaded.atStart.some((url) => url.endsWith(file));
    assert.ok(loadedAtStart('/src/stores/sqlite/sqliteStore.ts'), 'the store was loaded');
    assert.ok(loadedAtStart('/src/core/portability/exportFileReader.ts'), 'the import path was loaded');
    assert.deepEqual(loaded.atStart.filter(isZod), []);
    assert.deepEqual(loaded.afterRecall.filter(isZod), []);
    assert.deepEqual(loaded.afterImport.filter(isZod), []);
  });

  it('starts, stores and recalls without loading Node’s HTTP, TLS, child-process or worker modules', () => {
    assert.deepEqual(
      loaded.builtinsAtStart.filter((name) => NOT_AT_START.includes(name)),
      [],
    );
    assert.deepEqual(
      loaded.builtinsAfterRecall.filter((name) => NOT_AT_START.includes(name)),
      [],
    );
  });

  it('loads them when Firebolt’s transport sends and git runs (so the check above can see them)', () => {
    for (const name of ['node:https', 'node:tls', 'node:http', 'node:child_process'])
      assert.ok(loaded.builtinsAfterUse.includes(name), `${name} is loaded once used`);
  });

  it('loads zod with the MCP tools’ schemas (so the check above can see it)', () => {
    assert.ok(loaded.afterToolSchemas.some(isZod));
  });
});
