import type {
  AddToWorkingMemoryInput,
  AddToWorkingMemoryOutput,
  CheckpointInput,
  CheckpointOutput,
  ClearWorkingMemoryInput,
  ClearWorkingMemoryOutput,
  EvictWorkingItemInput,
  GetWorkingMemoryInput,
  GetWorkingMemoryOutput,
  InitSessionInput,
  InitSessionOutput,
  PromotedItem,
  UpdateWorkingItemInput,
  WorkingMemoryState,
} from './api/workingMemoryApi.ts';
import type {
  ForgetAllInput,
  ForgetAllOutput,
  ForgetMemoryInput,
  ForgetMemoryOutput,
  StoreMemoryInput,
  StoreMemoryOutput,
  UpdateMemoryInput,
  UpdateMemoryOutput,
} from './api/longTermApi.ts';
import type { LayerDefaults } from './coreDeps.ts';
import type { MemoryRecord, WorkingItemRecord } from './domain/records.ts';
import { StructuredFacts, type GetFactsInput, type SetFactInput, type SetFactOutput } from './facts/structuredFacts.ts';
import { autoLinkSimilar, type LinkOutput, linkMemories, relatedMemories, unlinkMemories } from './lifecycle/links.ts';
import { type SupersedeInput, type SupersedeOutput, supersedeMemory } from './lifecycle/supersede.ts';
import { type ScanResult, scanContradictions } from './lifecycle/contradictionScan.ts';
import { type QualityReport, qualityReport } from './lifecycle/qualityReport.ts';
import { type MemoryAnalytics, memoryAnalytics } from './lifecycle/analytics.ts';
import { type PruneInput, type PruneOutput, pruneMemories } from './lifecycle/prune.ts';
import { type MaintenanceOptions, type MaintenanceReport, runDailyMaintenance } from './lifecycle/maintenance.ts';
import type { MemoryEventListener } from './memoryEvents.ts';
import { exportMemories } from './portability/exportMemories.ts';
import type { MemoryExport } from './portability/exportFormat.ts';
import { type ExportPage, exportPage } from './portability/exportPages.ts';
import { type ImportOutput, importMemories } from './portability/importMemories.ts';
import type { GetRelevantContextInput, GetRelevantContextOutput } from './api/contextApi.ts';
import type { RecallInput, RecallOutput } from './api/longTermApi.ts';
import { AnchorChecker } from './anchors/anchorChecker.ts';
import { MaintenanceScheduler, type MaintenanceSchedulerOptions } from './lifecycle/maintenanceScheduler.ts';
import { ContextAssembler, type ContextOptions } from './context/assembleContext.ts';
import type { CoreDeps } from './coreDeps.ts';
import { EmbeddingGate } from './embeddingGate.ts';
import type { ExtractionQueue, ExtractionQueueOptions } from './extraction/extractionQueue.ts';
import type { MemoryExtractor } from './extraction/extractor.ts';
import type { EnrichmentPolicy } from './enrichment/enrichmentPolicy.ts';
import type { SearchKeyEnricher } from './enrichment/searchKeyEnricher.ts';
import { type EditSearchKeysInput, LongTermMemory } from './longterm/longTermMemory.ts';
import type { PromoteMemoryInput, PromoteMemoryOutput } from './api/layersApi.ts';
import { promoteMemory } from './layers/promotion.ts';
import { MemoryEvents } from './memoryEvents.ts';
import type { EmbeddingStartupCheck } from './ports/embeddingProvider.ts';
import type { ListQuery, ListResult, MemoryFilter, MemoryStore } from './ports/memoryStore.ts';

/** A listing of a project's shared layer: the partition is the project's, never a caller's user id. */
export type ProjectLayerQuery = Omit<ListQuery, 'filter'> & { filter: Omit<MemoryFilter, 'user_id'> };
import { Recall } from './retrieval/recall.ts';
import type { RepoSyncReport } from './repomemory/repoMemorySync.ts';
import type { AgentsFileResult } from './repomemory/agentsFile.ts';
import {
  type ExportAgentsSectionInput,
  RepoMemories,
  type ShareProjectMemoriesInput,
} from './repomemory/repoMemories.ts';
import { ConversationEpisodes } from './episodes/conversationEpisodes.ts';
import { intentMultiplier } from './retrieval/typeWeights.ts';
import type { TokenCounter } from './tokens/tokenCounter.ts';
import { requireId } from './validation.ts';
import { sharedPartition } from './layers/layerScope.ts';
import { newTimeOrderedId } from './util/ids.ts';
import { WorkingMemory } from './working/workingMemory.ts';
import { EmbeddingBackfill } from './background/embeddingBackfill.ts';
import { BackgroundModelQueue } from './background/modelQueue.ts';
import { createCoreDeps, type MemoryCoreOptions } from './coreOptions.ts';
import { type UserStats, userStats } from './userStats.ts';

// Other layers reach the core through this module (eslint.config.mjs, CORE_API): what they need of its parts is re-exported.
export { createCoreDeps, type MemoryCoreOptions } from './coreOptions.ts';
export type { UserStats } from './userStats.ts';

/**
 * The memory layer in one object: the MCP server, the CLI, the extension and the panel all
 * call these methods, so every surface behaves the same. Holds no editor or transport state.
 */
export class MemoryCore {
  readonly defaultProjectId: string | null | undefined;
  // The parts stay private: every surface (MCP tools, panel, CLI, editor, daemon) goes through the
  // use-case methods below, so a rule enforced here holds everywhere.
  private readonly events: MemoryEvents;
  private readonly store: MemoryStore;
  private readonly longTerm: LongTermMemory;
  private readonly working: WorkingMemory;
  /** Seed 002 episodic summaries of every 20 conversation turns. */
  private readonly episodes: ConversationEpisodes;
  private readonly embeddings: EmbeddingGate;
  private readonly facts: StructuredFacts;
  private readonly recaller: Recall;
  private readonly assembler: ContextAssembler;
  private readonly deps: CoreDeps;
  private readonly backfill: EmbeddingBackfill;
  private readonly modelQueue: BackgroundModelQueue;
  private maintenance: MaintenanceScheduler | undefined;
  private readonly embeddingCheck: EmbeddingStartupCheck | null;
  private readonly repoMemories: RepoMemories;

  /**
   * `deps` lets a composition root (tests of core modules, benchmarks) share the parts it built
   * with `createCoreDeps`; every other caller passes options only.
   */
  constructor(options: MemoryCoreOptions, deps: CoreDeps = createCoreDeps(options)) {
    this.deps = deps;
    this.events = deps.events;
    this.store = deps.store;
    this.embeddings = deps.embeddings;
    this.defaultProjectId = options.defaultProjectId;
    this.embeddingCheck = options.embeddingCheck ?? null;
    this.longTerm = new LongTermMemory(this.deps);
    this.working = new WorkingMemory(this.deps, this.longTerm);
    this.modelQueue = new BackgroundModelQueue(this.deps, this.longTerm, this.working);
    this.backfill = new EmbeddingBackfill(this.deps);
    // Summaries use the extractor the server runs (a model only when one is configured), else the offline rules.
    this.episodes = new ConversationEpisodes(
      this.deps,
      this.longTerm,
      () => this.modelQueue.current?.extractor ?? null,
    );
    this.working.episodeSink = this.episodes;
    this.facts = new StructuredFacts(this.deps, this.longTerm);
    this.recaller = new Recall(this.deps);
    this.assembler = new ContextAssembler(this.deps, this.recaller);
    this.repoMemories = new RepoMemories(this.deps, options.repoFiles ?? null);
  }

  /** The anchor check of this process's workspace; null when it serves none. */
  get anchors(): AnchorChecker | null {
    return this.deps.anchors;
  }

  get tokens(): TokenCounter {
    return this.deps.tokens;
  }

  /** The layer identifiers this core was configured with (seed 001); a bound server hides them from tools. */
  get layerDefaults(): LayerDefaults {
    return this.deps.config.layerDefaults;
  }

  /** Which backend holds the memories ("sqlite", "firebolt-core", …), for status lines. */
  get backendKind(): string {
    return this.store.kind;
  }

  /** The embedding model in use, or null when ranking is full-text only. */
  get embeddingModel(): string | null {
    return this.embeddings.model;
  }

  /** Subscribes to memory and working-memory changes made through this core. */
  onEvent(listener: MemoryEventListener): { dispose(): void } {
    return this.events.on(listener);
  }

  /** Loads a user's indexes ahead of the first recall (the daemon does this in the background). */
  async warmUp(userId: string): Promise<void> {
    await this.store.warmUp?.(userId);
  }

  // ── Long-term memory ──────────────────────────────────────────────────────────────────────
  storeMemory(input: StoreMemoryInput): Promise<StoreMemoryOutput> {
    return this.longTerm.store(input);
  }

  updateMemory(input: UpdateMemoryInput): Promise<UpdateMemoryOutput> {
    return this.longTerm.update(input);
  }

  /** The user's edit of a memory's search keys (the panel): added keys are the user's, removed ones no model adds back. */
  editSearchKeys(input: EditSearchKeysInput): Promise<MemoryRecord> {
    return this.longTerm.editSearchKeys(input);
  }

  /** One live memory; NOT_FOUND when it does not exist or was forgotten. */
  getMemory(userId: string, memoryId: string): Promise<MemoryRecord> {
    return this.longTerm.get(userId, memoryId);
  }

  /** The memories among `memoryIds` in a partition (a user, or a shared layer such as "project:P"), forgotten ones included. */
  getMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return this.store.getMemories(userId, [...memoryIds]);
  }

  /** Soft delete (restorable) or, with `hard: true`, erasure of the memory and everything derived from it. */
  forgetMemory(input: ForgetMemoryInput): Promise<ForgetMemoryOutput> {
    return this.longTerm.forget(input);
  }

  restoreMemory(userId: string, memoryId: string): Promise<MemoryRecord> {
    return this.longTerm.restore(userId, memoryId);
  }

  /** Restores many forgotten memories in one store write (the panel's and palette's undo). */
  restoreMemories(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return this.longTerm.restoreMany(userId, memoryIds);
  }

  forgetAllMemories(input: ForgetAllInput): Promise<ForgetAllOutput> {
    return this.longTerm.forgetAll(input);
  }

  listSessions(...args: Parameters<MemoryStore['listSessions']>): ReturnType<MemoryStore['listSessions']> {
    return this.store.listSessions(...args);
  }

  getSession(...args: Parameters<MemoryStore['getSession']>): ReturnType<MemoryStore['getSession']> {
    return this.store.getSession(...args);
  }

  /**
   * Changes when another process writes the store (any write, where the store cannot tell whose);
   * the panel and status bar poll it. This process's writes reach them as events instead.
   */
  changeToken(): Promise<string> {
    return this.store.foreignChangeToken?.() ?? this.store.changeToken();
  }

  // ── Working memory ────────────────────────────────────────────────────────────────────────
  initSession(input: InitSessionInput): Promise<InitSessionOutput> {
    return this.working.initSession(input);
  }

  addToWorkingMemory(input: AddToWorkingMemoryInput): Promise<AddToWorkingMemoryOutput> {
    return this.working.add(input);
  }

  getWorkingMemory(input: GetWorkingMemoryInput): Promise<GetWorkingMemoryOutput> {
    return this.working.get(input);
  }

  /** The session's items and budget as the panel and status bar show them. */
  workingState(sessionId: string, userId?: string): Promise<WorkingMemoryState> {
    return this.working.state(sessionId, userId);
  }

  checkpointWorkingMemory(input: CheckpointInput): Promise<CheckpointOutput> {
    return this.working.checkpoint(input);
  }

  clearWorkingMemory(input: ClearWorkingMemoryInput): Promise<ClearWorkingMemoryOutput> {
    return this.working.clear(input);
  }

  pinWorkingItem(input: UpdateWorkingItemInput): Promise<WorkingItemRecord> {
    return this.working.setPinned(input);
  }

  evictFromWorkingMemory(input: EvictWorkingItemInput): Promise<{ evicted: string; promoted: PromotedItem[] }> {
    return this.working.evict(input);
  }

  // ── Facts, links and lifecycle ────────────────────────────────────────────────────────────
  setFact(input: SetFactInput): Promise<SetFactOutput> {
    return this.facts.set(input);
  }

  getFacts(input: GetFactsInput): ReturnType<StructuredFacts['get']> {
    return this.facts.get(input);
  }

  deleteFact(input: Parameters<StructuredFacts['delete']>[0]): ReturnType<StructuredFacts['delete']> {
    return this.facts.delete(input);
  }

  linkMemories(userId: string, memoryId: string, otherId: string): Promise<LinkOutput> {
    return linkMemories(this.deps, userId, memoryId, otherId);
  }

  unlinkMemories(userId: string, memoryId: string, otherId: string): Promise<LinkOutput> {
    return unlinkMemories(this.deps, userId, memoryId, otherId);
  }

  relatedMemories(input: Parameters<typeof relatedMemories>[1]): ReturnType<typeof relatedMemories> {
    return relatedMemories(this.deps, input);
  }

  /** Links a memory to those related to it above the documented threshold (links.ts). */
  autoLinkSimilar(input: Parameters<typeof autoLinkSimilar>[1]): ReturnType<typeof autoLinkSimilar> {
    return autoLinkSimilar({ coreDeps: this.deps, recall: (query, options) => this.recall(query, options) }, input);
  }

  supersedeMemory(input: SupersedeInput): Promise<SupersedeOutput> {
    return supersedeMemory(this.deps, input);
  }

  findContradictions(userId: string, options?: Parameters<typeof scanContradictions>[2]): Promise<ScanResult> {
    return scanContradictions(this.deps, userId, options);
  }

  qualityReport(userId: string): Promise<QualityReport> {
    return qualityReport(this.deps, userId);
  }

  analytics(userId: string, options?: Parameters<typeof memoryAnalytics>[2]): Promise<MemoryAnalytics> {
    return memoryAnalytics(this.deps, userId, options);
  }

  pruneMemories(input: PruneInput): Promise<PruneOutput> {
    return pruneMemories(this.deps, input);
  }

  /** Decay, consolidation and prune for one user, now (the scheduler runs the same daily). */
  runMaintenance(userId: string, options?: MaintenanceOptions): Promise<MaintenanceReport> {
    return runDailyMaintenance(this.deps, userId, options);
  }

  // ── Portability ───────────────────────────────────────────────────────────────────────────
  exportMemories(userId: string): Promise<MemoryExport> {
    return exportMemories(this.deps, userId);
  }

  /** One page of an export, for answers that must stay under a size limit (the MCP tool). */
  exportPage(userId: string, cursor: string | undefined): Promise<ExportPage> {
    return exportPage(this.deps, userId, cursor);
  }

  importMemories(userId: string, data: unknown): Promise<ImportOutput> {
    return importMemories(this.deps, userId, data);
  }

  async open(): Promise<void> {
    await this.store.open();
  }

  /**
   * Re-embeds pending memories in the background (stored while the provider was down, or under
   * another model) every `intervalMs`, a batch at a time, until none is left (embeddingBackfill.ts).
   */
  startEmbeddingBackfill(intervalMs = 30_000): void {
    this.backfill.start(intervalMs);
  }

  /**
   * Background extraction of promoted working-memory content (seed 000 §8.3, seed 003): from now on
   * checkpoint and eviction store content raw, tagged extraction:pending, and this queue replaces it
   * with extracted memories off the request path. Replaces a queue started earlier.
   */
  startExtraction(extractor: MemoryExtractor, options?: ExtractionQueueOptions): Promise<ExtractionQueue> {
    return this.modelQueue.startExtraction(extractor, options);
  }

  /**
   * Background enrichment (issue #14 point 4): from now on stored and edited memories are tagged
   * enrichment:pending and get search keys from `enricher` on the extraction queue, off the
   * request path. The caller has the user's consent; `policy` says which content may not be sent.
   */
  startEnrichment(enricher: SearchKeyEnricher, policy: EnrichmentPolicy = {}): ExtractionQueue {
    return this.modelQueue.startEnrichment(enricher, policy);
  }

  get extraction(): ExtractionQueue | null {
    return this.modelQueue.current;
  }

  /** Runs daily maintenance (decay, consolidation, prune) on a timer until close; replaces a running schedule. */
  startMaintenance(options: MaintenanceSchedulerOptions): MaintenanceScheduler {
    this.maintenance?.stop();
    this.maintenance = new MaintenanceScheduler(this.deps, options);
    this.maintenance.start();
    return this.maintenance;
  }

  /**
   * Shares the project's memories as the workspace's `.memory/` files, kept in step both ways
   * (issue #34): starts it with a full pass, or runs a pass now when already shared; the report.
   */
  shareProjectMemories(input: ShareProjectMemoriesInput): Promise<RepoSyncReport> {
    return this.repoMemories.share(input);
  }

  /** Stops sharing a workspace's project memories (the setting turned off); files and memories stay. */
  stopSharingProjectMemories(workspaceDir: string): Promise<boolean> {
    return this.repoMemories.stop(workspaceDir);
  }

  /** The marked section of AGENTS.md (or another instructions file) from the project's pinned memories, once. */
  exportAgentsSection(input: ExportAgentsSectionInput): Promise<AgentsFileResult> {
    return this.repoMemories.exportAgentsSection(input);
  }

  async close(): Promise<void> {
    await this.repoMemories.close();
    this.maintenance?.stop();
    // Before the store closes: evicted working memory is promoted, running extractions finish
    // (queued ones stay pending in the store).
    await this.working.drainPromotions();
    await this.episodes.drain();
    await this.modelQueue.close();
    this.backfill.stop();
    await this.deps.access.flush();
    await this.store.close();
  }

  /**
   * Waits until the work a call left running is done: promotion of evicted working memory and
   * episode summaries (tests, shutdown, a caller that must read its own writes).
   */
  async drainBackgroundWork(): Promise<void> {
    await this.working.drainPromotions();
    await this.episodes.drain();
  }

  /** Waits until every queued access-log entry is written (tests, shutdown, exports). */
  flushAccessLog(): Promise<void> {
    return this.deps.access.flush();
  }

  /** `tool` names who asked (access log, recent recalls); default recall_memories. */
  async recall(input: RecallInput, options: { logAccess?: boolean; tool?: string } = {}): Promise<RecallOutput> {
    const { memories, retrieval_breakdown } = await this.recaller.recall(input, {
      typeWeight: (_category, subtype, intent) => intentMultiplier(subtype, intent),
      defaultProjectId: this.defaultProjectId,
      ...options,
      tool: options.tool ?? 'recall_memories',
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
      {
        access_id: newTimeOrderedId('acc'),
        memory_id: memory.memory_id,
        session_id: null,
        user_id: userId,
        query_text: input.query,
        similarity_score: null,
        tool: input.tool,
        accessed_at: this.deps.clock.now().toISOString(),
      },
    ]);
  }

  async getRelevantContext(
    input: GetRelevantContextInput,
    options: Omit<ContextOptions, 'defaultProjectId'> = {},
  ): Promise<GetRelevantContextOutput> {
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

  /** A page of one project's shared layer (the panel's "Shared project layer" scope; issue #34). */
  async listProjectLayer(projectId: string, query: ProjectLayerQuery): Promise<ListResult> {
    const partition = sharedPartition('project', requireId(projectId, 'project_id'));
    return this.store.listMemories({ ...query, filter: { ...query.filter, user_id: partition } });
  }

  async stats(userId: string): Promise<UserStats> {
    return userStats(this.deps, userId, this.embeddingCheck, this.modelQueue.current);
  }

  /**
   * Embeds memories stored while the provider was down or under another model (seed 000 §12.1 T3:
   * lazy re-embedding). Returns how many were embedded; call it on a timer or after outages.
   */
  backfillEmbeddings(batchSize = 32): Promise<number> {
    return this.backfill.runBatch(batchSize);
  }
}
