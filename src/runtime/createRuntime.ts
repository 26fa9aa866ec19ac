import { type Logger, stderrLogger } from '../core/ports/logger.ts';
import { MemoryCore } from '../core/memoryCore.ts';
import { nodeWorkspaceFiles } from './nodeWorkspaceFiles.ts';
import { nodeRepoWorkspace } from './nodeRepoWorkspace.ts';
import type { EmbeddingProvider } from '../core/ports/embeddingProvider.ts';
import type { MemoryStore } from '../core/ports/memoryStore.ts';
import { HashingTestEmbeddings } from '../embeddings/hashingTestEmbeddings.ts';
import { OpenAiEmbeddings } from '../embeddings/openAiEmbeddings.ts';
import type { FireboltConfig } from '../stores/firebolt/fireboltConfig.ts';
import { FireboltStore } from '../stores/firebolt/fireboltStore.ts';
import { createResilientFireboltStore } from '../stores/resilient/createResilientStore.ts';
import { SqliteMemoryStore } from '../stores/sqlite/sqliteStore.ts';
import type { BackendConfig, EmbeddingConfig, RuntimeConfig } from './runtimeConfig.ts';

/**
 * The composition root shared by the CLI and the extension: config in, an opened core out.
 * A Firebolt backend is wrapped in the resilient store: a local replica and outbox in
 * `config.dataDir` keep every acknowledged write while Firebolt is unreachable.
 */
export async function createRuntime(config: RuntimeConfig, logger: Logger = stderrLogger): Promise<MemoryCore> {
  const core = new MemoryCore({
    logger,
    store: createStore(config.backend, { localReplicaDir: config.dataDir, logger }),
    embeddings: createEmbeddings(config.embeddings),
    ...(config.embeddingCheck ? { embeddingCheck: config.embeddingCheck } : {}),
    ...(config.defaultProjectId ? { defaultProjectId: config.defaultProjectId } : {}),
    ...(config.layerDefaults ? { config: { layerDefaults: config.layerDefaults } } : {}),
    ...(config.workspaceDir ? { workspace: nodeWorkspaceFiles(config.workspaceDir) } : {}),
    repoFiles: (workspaceDir) => nodeRepoWorkspace(workspaceDir, { logger }),
  });
  await core.open();
  core.startEmbeddingBackfill();
  return core;
}

export interface CreateStoreOptions {
  /**
   * For the Firebolt kinds: keep a local replica and outbox in this directory (what
   * createRuntime does). Absent: the bare Firebolt store, which is what a connection check or
   * a copy into Firebolt wants (it must fail when Firebolt is away, not queue).
   */
  localReplicaDir?: string;
  /** Where the store reports background failures (default: stderr). */
  logger?: Logger;
}

export function createStore(backend: BackendConfig, options: CreateStoreOptions = {}): MemoryStore {
  if (backend.kind === 'sqlite')
    return new SqliteMemoryStore({ dataDir: backend.dataDir, ...(options.logger ? { logger: options.logger } : {}) });
  const firebolt = fireboltConfigOf(backend);
  return options.localReplicaDir === undefined
    ? new FireboltStore(firebolt)
    : createResilientFireboltStore(firebolt, options.localReplicaDir, options.logger ? { logger: options.logger } : {});
}

/** The store-level Firebolt config for a runtime backend. */
export function fireboltConfigOf(backend: Exclude<BackendConfig, { kind: 'sqlite' }>): FireboltConfig {
  switch (backend.kind) {
    case 'firebolt-core':
      return { kind: 'core', url: backend.url, database: backend.database };
    case 'firebolt-cloud': {
      const { kind: _kind, ...cloud } = backend;
      return { kind: 'cloud', ...cloud };
    }
  }
}

export function createEmbeddings(config: EmbeddingConfig): EmbeddingProvider | null {
  switch (config.kind) {
    case 'none':
      return null;
    case 'hashing-test':
      return new HashingTestEmbeddings(config.dimensions);
    case 'openai':
      return new OpenAiEmbeddings(config);
  }
}
