import { type Logger, stderrLogger } from './ports/logger.ts';
import { AccessRecorder } from './accessRecorder.ts';
import { AnchorChecker } from './anchors/anchorChecker.ts';
import type { WorkspaceFiles } from './anchors/workspaceFiles.ts';
import { type CoreConfig, type CoreDeps, DEFAULT_CORE_CONFIG, type Summarize } from './coreDeps.ts';
import { EmbeddingGate } from './embeddingGate.ts';
import { MemoryEvents } from './memoryEvents.ts';
import { type Clock, systemClock } from './ports/clock.ts';
import type { EmbeddingProvider, EmbeddingStartupCheck } from './ports/embeddingProvider.ts';
import type { MemoryStore } from './ports/memoryStore.ts';
import type { RepoFilesFactory } from './repomemory/repoMemories.ts';
import { TiktokenCounter, type TokenCounter } from './tokens/tokenCounter.ts';

/** The parts every core module is built from, composed once per core. */
export function createCoreDeps(options: MemoryCoreOptions): CoreDeps {
  const log = options.logger ?? stderrLogger;
  return {
    store: options.store,
    embeddings: new EmbeddingGate(options.embeddings ?? null, options.embeddingTimeoutMs),
    tokens: options.tokens ?? new TiktokenCounter(),
    clock: options.clock ?? systemClock,
    events: new MemoryEvents(log),
    access: new AccessRecorder(options.store, log),
    log,
    config: { ...DEFAULT_CORE_CONFIG, ...options.config },
    anchors: options.workspace ? new AnchorChecker(options.workspace) : null,
    ...(options.summarize ? { summarize: options.summarize } : {}),
  };
}

export interface MemoryCoreOptions {
  store: MemoryStore;
  embeddings?: EmbeddingProvider | null;
  tokens?: TokenCounter;
  clock?: Clock;
  config?: Partial<CoreConfig>;
  /** Project scope applied to recall and storage when a call names none. */
  defaultProjectId?: string | null;
  /** How long a tool waits for the embedding provider before degrading to full-text (default 4000 ms). */
  embeddingTimeoutMs?: number;
  /** LLM summary of near-duplicate clusters during consolidation; deterministic merge when absent. */
  summarize?: Summarize;
  /** Where background failures are reported (default: stderr). */
  logger?: Logger;
  /** The workspace whose code memories are anchored to (fml serve --workspace); anchors are checked lazily at recall. */
  workspace?: WorkspaceFiles | null;
  /** Opens a workspace's `.memory/` folder for sharing project memories (the runtime's Node adapter). */
  repoFiles?: RepoFilesFactory;
  /** What the embedding provider's startup check found (Ollama), reported by stats. */
  embeddingCheck?: EmbeddingStartupCheck | null;
}
