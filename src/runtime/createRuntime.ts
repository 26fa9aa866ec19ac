import { MemoryCore } from '../core/memoryCore.ts';
import type { EmbeddingProvider } from '../core/ports/embeddingProvider.ts';
import type { MemoryStore } from '../core/ports/memoryStore.ts';
import { HashingTestEmbeddings } from '../embeddings/hashingTestEmbeddings.ts';
import { OpenAiEmbeddings } from '../embeddings/openAiEmbeddings.ts';
import { SqliteMemoryStore } from '../stores/sqlite/sqliteStore.ts';
import type { BackendConfig, EmbeddingConfig, RuntimeConfig } from './runtimeConfig.ts';

/** The composition root shared by the CLI and the extension: config in, an opened core out. */
export async function createRuntime(config: RuntimeConfig): Promise<MemoryCore> {
  const core = new MemoryCore({
    store: createStore(config.backend),
    embeddings: createEmbeddings(config.embeddings),
    ...(config.defaultProjectId ? { defaultProjectId: config.defaultProjectId } : {}),
  });
  await core.open();
  return core;
}

export function createStore(backend: BackendConfig): MemoryStore {
  switch (backend.kind) {
    case 'sqlite':
      return new SqliteMemoryStore({ dataDir: backend.dataDir });
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
