import type { LayerIdentifiers } from './domain/layers.ts';
import type { EvictionPolicy } from './domain/records.ts';
import type { Clock } from './ports/clock.ts';
import type { EmbeddingProvider } from './ports/embeddingProvider.ts';
import type { MemoryStore } from './ports/memoryStore.ts';
import type { TokenCounter } from './tokens/tokenCounter.ts';
import type { MemoryEvents } from './memoryEvents.ts';
import type { EmbeddingGate } from './embeddingGate.ts';
import type { AccessRecorder } from './accessRecorder.ts';

export interface CoreConfig {
  defaultMaxTokens: number;
  defaultEvictionPolicy: EvictionPolicy;
  /** checkpoint_working_memory does nothing below this many tokens unless forced (seed 000 §13.3). */
  checkpointThresholdTokens: number;
  /** Similarity at or above which a new memory is a duplicate of an existing one (seed 000 §12.1 T5). */
  dedupThreshold: number;
  /** Similarity at or above which an existing memory is reported as similar (similar_existing, action created_new; below dedupThreshold). */
  similarThreshold: number;
  /** Default for recall_memories min_similarity (seed 000 §7.1). */
  minSimilarity: number;
  /** Neighbours on each side of a top hit that share its score (same conversation); 0 turns expansion off. */
  neighbourRadius: number;
  /** What happens to content carrying a credential before it is stored: redacted (default) or refused (seed 000 §10). */
  secretPolicy: 'redact' | 'refuse';
  /** Also redact e-mail addresses and phone numbers before storage (seed 000 §10.2 PII handling). */
  piiRedaction: boolean;
  /**
   * Layer identifiers applied when a call names none (seed 001): the editor's team, org and
   * company from its settings, the agent the server speaks for. Empty: only the caller's own layers.
   */
  layerDefaults: LayerDefaults;
}

export type LayerDefaults = Pick<LayerIdentifiers, 'agent_id' | 'team_id' | 'org_id' | 'company_id'>;

export const DEFAULT_CORE_CONFIG: CoreConfig = {
  defaultMaxTokens: 8000,
  defaultEvictionPolicy: 'hybrid',
  checkpointThresholdTokens: 6000,
  dedupThreshold: 0.95,
  similarThreshold: 0.8,
  minSimilarity: 0.7,
  neighbourRadius: 2,
  secretPolicy: 'redact',
  piiRedaction: false,
  layerDefaults: {},
};

/** Optional LLM hook: one summary for a cluster of near-duplicate memories (consolidation, seed 003). */
export type Summarize = (texts: readonly string[]) => Promise<string>;

/** What every core module is built from; one composition root creates it per process. */
export interface CoreDeps {
  store: MemoryStore;
  embeddings: EmbeddingGate;
  tokens: TokenCounter;
  clock: Clock;
  events: MemoryEvents;
  /** Queues access-log writes off the request path. */
  access: AccessRecorder;
  config: CoreConfig;
  summarize?: Summarize;
}

export type { EmbeddingProvider };
