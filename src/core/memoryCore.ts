import type { GetRelevantContextInput, GetRelevantContextOutput } from './api/contextApi.ts';
import type { RecallInput, RecallOutput } from './api/longTermApi.ts';
import { AccessRecorder } from './accessRecorder.ts';
import { MaintenanceScheduler, type MaintenanceSchedulerOptions } from './lifecycle/maintenanceScheduler.ts';
import { ContextAssembler, type ContextOptions } from './context/assembleContext.ts';
import { type CoreConfig, type CoreDeps, DEFAULT_CORE_CONFIG, type Summarize } from './coreDeps.ts';
import { EmbeddingGate } from './embeddingGate.ts';
import { ExtractionQueue, type ExtractionQueueOptions, type ExtractionStats } from './extraction/extractionQueue.ts';
import type { MemoryExtractor } from './extraction/extractor.ts';
import { LongTermMemory } from './longterm/longTermMemory.ts';
import type { PromoteMemoryInput, PromoteMemoryOutput } from './api/layersApi.ts';
import { promoteMemory } from './layers/promotion.ts';
import { MemoryEvents } from './memoryEvents.ts';
import { type Clock, systemClock } from './ports/clock.ts';
import type { EmbeddingProvider } from './ports/embeddingProvider.ts';
import type { ListQuery, ListResult, MemoryStore, StoreUserStats } from './ports/memoryStore.ts';
import { Recall } from './retrieval/recall.ts';
import { ConversationEpisodes } from './episodes/conversationEpisodes.ts';
import { intentMultiplier } from './retrieval/typeWeights.ts';
import { TiktokenCounter, type TokenCounter } from './tokens/tokenCounter.ts';
import { requireId } from './validation.ts';
import { newId } from './util/ids.ts';
import { WorkingMemory } from './working/workingMemory.ts';

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
}

export interface UserStats extends StoreUserStats {
  user_id: string;
  backend: { kind: string; status: string; detail: string; latency_ms: number };
  embeddings: { provider: string; model: string | null; failures: number; last_error: { message: string; at: string } | null };
  /** Present while background extraction runs (startExtraction). */
  extraction?: ExtractionStats;
}

/**
 * The memory layer in one object: the MCP server, the CLI, the extension and the panel all
 * call these methods, so every surface behaves the same. Holds no editor or transport state.
 */
export class MemoryCore {
  readonly events: MemoryEvents;
  readonly store: MemoryStore;
  readonly longTerm: LongTermMemory;
  readonly working: WorkingMemory;
  /** Seed 002 episodic summaries of every 20 conversation turns. */
  readonly episodes: ConversationEpisodes;
  readonly embeddings: EmbeddingGate;
  readonly defaultProjectId: string | null | undefined;
  private readonly recaller: Recall;
  private readonly assembler: ContextAssembler;
  private readonly deps: CoreDeps;
  private backfillTimer: NodeJS.Timeout | undefined;
  private maintenance: MaintenanceScheduler | undefined;
  private extractionQueue: ExtractionQueue | null = null;

  constructor(options: MemoryCoreOptions) {
    this.events = new MemoryEvents();
    this.store = options.store;
    this.embeddings = new EmbeddingGate(options.embeddings ?? null, options.embeddingTimeoutMs);
    this.defaultProjectId = options.defaultProjectId;
    this.deps = {
      store: options.store,
      embeddings: this.embeddings,
      tokens: options.tokens ?? new TiktokenCounter(),
      clock: options.clock ?? systemClock,
      events: this.events,
      access: new AccessRecorder(options.store),
      config: { ...DEFAULT_CORE_CONFIG, ...options.config },
      ...(options.summarize ? { summarize: options.summarize } : {}),
    };
    this.longTerm = new LongTermMemory(this.deps);
    this.working = new WorkingMemory(this.deps, this.longTerm);
    // Summaries use the extractor the server runs (a model only when one is configured), else the offline rules.
    this.episodes = new ConversationEpisodes(this.deps, this.longTerm, () => this.extractionQueue?.extractor ?? null);
    this.working.episodeSink = this.episodes;
    this.recaller = new Recall(this.deps);
    this.assembler = new ContextAssembler(this.deps, this.recaller);
  }

  /** The shared dependencies, for lifecycle modules (facts, consolidation, export) built over this core. */
  get coreDeps(): CoreDeps {
    return this.deps;
  }

  get tokens(): TokenCounter {
    return this.deps.tokens;
  }

  async open(): Promise<void> {
    await this.store.open();
  }

  /**
   * Re-embeds pending memories in the background (stored while the provider was down, or under
   * another model) every `intervalMs`, a batch at a time, until none is left. Failures wait for
   * the next tick: the provider may be back by then.
   */
  startEmbeddingBackfill(intervalMs = 30_000): void {
    if (!this.embeddings.provider || this.backfillTimer) return;
    let running = false;
    const tick = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        let embedded: number;
        do embedded = await this.backfillEmbeddings();
        while (embedded > 0);
      } catch (error) {
        console.error('[fml] background re-embedding paused:', error instanceof Error ? error.message : String(error));
      } finally {
        running = false;
      }
    };
    this.backfillTimer = setInterval(() => void tick(), intervalMs);
    this.backfillTimer.unref();
    void tick();
  }

  /**
   * Background extraction of promoted working-memory content (seed 000 §8.3, seed 003): from now on
   * checkpoint and eviction store content raw, tagged extraction:pending, and this queue replaces it
   * with extracted memories off the request path. Replaces a queue started earlier.
   */
  async startExtraction(extractor: MemoryExtractor, options?: ExtractionQueueOptions): Promise<ExtractionQueue> {
    const previous = this.extractionQueue;
    const queue = new ExtractionQueue(this.deps, this.longTerm, extractor, options);
    this.extractionQueue = queue;
    this.working.extractionSink = queue;
    await previous?.close();
    return queue;
  }

  get extraction(): ExtractionQueue | null {
    return this.extractionQueue;
  }

  /** Runs daily maintenance (decay, consolidation, prune) on a timer until close; replaces a running schedule. */
  startMaintenance(options: MaintenanceSchedulerOptions): MaintenanceScheduler {
    this.maintenance?.stop();
    this.maintenance = new MaintenanceScheduler(this.deps, options);
    this.maintenance.start();
    return this.maintenance;
  }

  async close(): Promise<void> {
    this.maintenance?.stop();
    // Before the store closes: evicted working memory is promoted, running extractions finish
    // (queued ones stay pending in the store).
    await this.working.drainPromotions();
    await this.episodes.drain();
    await this.extractionQueue?.close();
    if (this.backfillTimer) clearInterval(this.backfillTimer);
    this.backfillTimer = undefined;
    await this.deps.access.flush();
    await this.store.close();
  }

  /** Waits until every queued access-log entry is written (tests, shutdown, exports). */
  flushAccessLog(): Promise<void> {
    return this.deps.access.flush();
  }

  async recall(input: RecallInput, options: { logAccess?: boolean } = {}): Promise<RecallOutput> {
    const { memories, retrieval_breakdown } = await this.recaller.recall(input, {
      tool: 'recall_memories',
      typeWeight: (_category, subtype, intent) => intentMultiplier(subtype, intent),
      defaultProjectId: this.defaultProjectId,
      ...options,
    });
    return { memories, retrieval_breakdown };
  }

  /**
   * Logs that the user opened one memory (a search result, say). Browsing and search-as-you-type
   * log nothing: only memories someone actually receives or opens count toward frequency.
   */
  async recordOpened(input: { user_id: string; memory_id: string; query: string | null; tool: string }): Promise<void> {
    const userId = requireId(input.user_id, 'user_id');
    const [memory] = await this.store.getMemories(userId, [requireId(input.memory_id, 'memory_id')]);
    if (!memory) return;
    this.deps.access.record([
      { access_id: newId('acc'), memory_id: memory.memory_id, session_id: null, user_id: userId, query_text: input.query, similarity_score: null, tool: input.tool, accessed_at: this.deps.clock.now().toISOString() },
    ]);
  }

  async getRelevantContext(input: GetRelevantContextInput, options: Omit<ContextOptions, 'defaultProjectId'> = {}): Promise<GetRelevantContextOutput> {
    return this.assembler.assemble(input, { defaultProjectId: this.defaultProjectId, ...options });
  }

  /** Copies a memory into another layer, recording who promoted it and when (seed 001; never implicit). */
  promoteMemory(input: PromoteMemoryInput): Promise<PromoteMemoryOutput> {
    return promoteMemory(this.deps, this.longTerm, input);
  }

  async listMemories(query: ListQuery): Promise<ListResult> {
    requireId(query.filter.user_id, 'user_id');
    return this.store.listMemories(query);
  }

  async stats(userId: string): Promise<UserStats> {
    const [stats, health] = await Promise.all([this.store.stats(requireId(userId, 'user_id')), this.store.health()]);
    return {
      user_id: userId,
      ...stats,
      backend: { kind: this.store.kind, status: health.status, detail: health.detail, latency_ms: health.latency_ms },
      embeddings: {
        provider: this.embeddings.provider?.kind ?? 'none',
        model: this.embeddings.model,
        failures: this.embeddings.failures,
        last_error: this.embeddings.lastError,
      },
      ...(this.extractionQueue ? { extraction: this.extractionQueue.stats() } : {}),
    };
  }

  /**
   * Embeds memories stored while the provider was down or under another model (seed 000 §12.1 T3:
   * lazy re-embedding). Returns how many were embedded; call it on a timer or after outages.
   */
  async backfillEmbeddings(batchSize = 32): Promise<number> {
    const model = this.embeddings.model;
    if (!model) return 0;
    const pending = await this.store.listUnembedded(null, model, batchSize);
    if (pending.length === 0) return 0;
    const vectors = await this.embeddings.embedMany(pending.map((memory) => memory.content));
    for (let index = 0; index < pending.length; index++) {
      await this.store.updateMemory({ ...pending[index], embedding_model: model }, { model, vector: vectors[index] });
    }
    return pending.length;
  }
}
