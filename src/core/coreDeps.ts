import type { LayerDefaults } from './domain/layers.ts';
import type { EvictionPolicy } from './domain/records.ts';
import type { Clock } from './ports/clock.ts';
import type { EmbeddingProvider } from './ports/embeddingProvider.ts';
import type { MemoryStore } from './ports/memoryStore.ts';
import type { TokenCounter } from './tokens/tokenCounter.ts';
import type { MemoryEvents } from './memoryEvents.ts';
import type { EmbeddingGate } from './embeddingGate.ts';
import type { AccessRecorder } from './accessRecorder.ts';
import type { Logger } from './ports/logger.ts';
import type { AnchorChecker } from './anchors/anchorChecker.ts';

export interface CoreConfig {
  defaultMaxTokens: number;
  defaultEvictionPolicy: EvictionPolicy;
  /** checkpoint_working_memory does nothing below this many tokens unless forced (seed 000 §13.3). */
  checkpointThresholdTokens: number;
  /** Similarity at or above which a new memory is a duplicate of an existing one (seed 000 §12.1 T5). */
  dedupThreshold: number;
  /** Similarity at or above which an existing memory is reported as similar (similar_existing, action created_new; below dedupThreshold). */
  similarThreshold: number;
  /** How similar a memory found only by its vector must be to the query (cosine, 0..1). */
  minSimilarity: number;
  /**
   * Default relevance floor of recall_memories and get_relevant_context (the default of
   * min_similarity): a result's final score must reach it, or the answer leaves it out.
   */
  relevanceFloor: number;
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

export type { LayerDefaults } from './domain/layers.ts';

/**
 * Final score a memory needs to be returned by default. Text scores are the share of the query's
 * information a memory covers (queryCoverage.ts), so this asks for about half of what the question
 * is about, after the bounded multipliers (README, Retrieval).
 */
export const RELEVANCE_FLOOR = 0.3;

export const DEFAULT_CORE_CONFIG: CoreConfig = {
  defaultMaxTokens: 8000,
  defaultEvictionPolicy: 'hybrid',
  checkpointThresholdTokens: 6000,
  dedupThreshold: 0.95,
  similarThreshold: 0.8,
  minSimilarity: 0.7,
  relevanceFloor: RELEVANCE_FLOOR,
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
  /** Background failures and retries; the editor's output channel or stderr. */
  log: Logger;
  summarize?: Summarize;
  /** Checks memories' code anchors against the workspace this process serves; null without one (issue #18). */
  anchors: AnchorChecker | null;
}

export type { EmbeddingProvider };
