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
} from '../api/workingMemoryApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { ExtractionSink } from '../extraction/pendingExtraction.ts';
import type { EpisodeSink } from '../episodes/conversationEpisodes.ts';
import { completesEpisode, episodeStartedAt } from '../episodes/conversationTurns.ts';
import type { SessionRecord, WorkingContentType, WorkingItemRecord } from '../domain/records.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { guardJson, guardText, mergeRedactions } from '../safety/contentGuard.ts';
import { newId } from '../util/ids.ts';
import { KeyedMutex } from '../util/keyedMutex.ts';
import { LIMITS, requireContent, requireId, requireMetadata, requirePositiveInt } from '../validation.ts';
import { chooseEvictions, selectWithinBudget } from './eviction.ts';
import { isAwaitingPromotion, isKeptAtClear } from './promotedItems.ts';
import { WorkingPromotion } from './workingPromotion.ts';
import { state, sum } from './workingState.ts';
import { planAdd } from './addPlan.ts';
import { requireSessionSettings, sessionNotFound, sessionToOpen } from './sessionSettings.ts';
import { WORKING_CONTENT_TYPES } from '../domain/recordChoices.ts';

const CONTENT_TYPES = WORKING_CONTENT_TYPES;

/** Sessions and their token-budgeted working memory (seed 000 §6.1, §7.1, §8.2). */
export class WorkingMemory {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  private readonly locks = new KeyedMutex();
  private readonly promotion: WorkingPromotion;
  /** Seed 002 episodic summaries (set by MemoryCore): told each time a session completes a run of turns. */
  episodeSink: EpisodeSink | null = null;

  constructor(deps: CoreDeps, longTerm: LongTermMemory) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.promotion = new WorkingPromotion(deps, longTerm, this.locks);
  }

  /**
   * Extraction hook (set by MemoryCore.startExtraction): promoted content is stored raw and tagged
   * pending first, then handed over for extraction off the request path. Null: promotion as before.
   */
  get extractionSink(): ExtractionSink | null {
    return this.promotion.extractionSink;
  }

  set extractionSink(sink: ExtractionSink | null) {
    this.promotion.extractionSink = sink;
  }

  async initSession(input: InitSessionInput): Promise<InitSessionOutput> {
    const userId = requireId(input.user_id, 'user_id');
    const sessionId = input.session_id === undefined ? newId('sess') : requireId(input.session_id, 'session_id');
    const settings = requireSessionSettings(input, this.deps.config.defaultMaxTokens);
    return this.locks.run(sessionId, async () => {
      const now = this.deps.clock.now().toISOString();
      const found = await this.deps.store.getSessionWithItems(sessionId);
      const existing = found?.session ?? null;
      if (existing && existing.user_id !== userId) throw sessionNotFound(sessionId);
      const session = sessionToOpen(existing, input, {
        sessionId,
        userId,
        settings,
        now,
        defaultPolicy: this.deps.config.defaultEvictionPolicy,
      });
      let items = found ? live(found.items) : [];
      let evicted: WorkingItemRecord[] = [];
      if (existing && session.max_tokens < existing.total_tokens) {
        // A smaller budget on resume applies at once, through the normal eviction path.
        ({ evicted } = chooseEvictions(
          items,
          existing.total_tokens - session.max_tokens,
          session.eviction_policy,
          new Date(now),
        ));
        await this.promote(session, evicted);
        items = items.filter((item) => !evicted.includes(item));
      }
      session.total_tokens = sum(items);
      await this.deps.store.commitWorking({ session, upsert: [], delete: evicted.map((item) => item.item_id) });
      // Items evicted before a crash and never promoted are promoted now.
      if (existing) this.promotion.schedule(sessionId);
      this.emit(session);
      return { session_id: sessionId, created: !existing, working_memory: state(session, items) };
    });
  }

  async add(input: AddToWorkingMemoryInput): Promise<AddToWorkingMemoryOutput> {
    // Secrets are redacted or refused before the item is kept or promoted (seed 000 §10).
    const guarded = guardText(requireContent(input.content), this.deps.config);
    const content = guarded.content;
    if (!CONTENT_TYPES.includes(input.content_type)) {
      throw new MemoryError('INVALID_INPUT', `content_type must be one of ${CONTENT_TYPES.join(', ')}.`, {
        details: { field: 'content_type' },
      });
    }
    const guardedMetadata = guardJson(requireMetadata(input.metadata), this.deps.config);
    const metadata = guardedMetadata.value;
    const redactions = mergeRedactions(guarded.redactions, guardedMetadata.redactions);
    const tokenCount = this.deps.tokens.count(content);
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const { session, items } = await this.requireSession(input.session_id, input.user_id);
      if (tokenCount > session.max_tokens) {
        throw new MemoryError(
          'CONTENT_TOO_LONG',
          `This item is ${tokenCount} tokens but the session's working memory holds at most ${session.max_tokens}. Store it with store_memory instead, or raise max_tokens.`,
          {
            details: { token_count: tokenCount, max_tokens: session.max_tokens },
          },
        );
      }
      const now = this.deps.clock.now();
      const { item, updated, evicted, toPromote, pendingPromotion, promoted, turn } = planAdd({
        session,
        items,
        input,
        content,
        metadata,
        tokenCount,
        now,
      });
      await this.deps.store.commitWorking({
        session: updated,
        upsert: [item, ...pendingPromotion],
        delete: evicted.filter((entry) => !toPromote.includes(entry)).map((entry) => entry.item_id),
      });
      if (pendingPromotion.length > 0) this.promotion.schedule(session.session_id);
      if (evicted.length > 0) this.episodeSink?.turnsEvicted(session.session_id, evicted);
      if (turn && completesEpisode(turn.turn))
        this.episodeSink?.episodeCompleted({
          session: updated,
          turn_end: turn.turn,
          started_at: episodeStartedAt(updated),
        });
      this.emit(updated);
      return {
        item_id: item.item_id,
        token_count: tokenCount,
        evicted_items: evicted.map((entry) => entry.item_id),
        promoted_items: promoted,
        total_tokens: updated.total_tokens,
        redactions,
      };
    });
  }

  async get(input: GetWorkingMemoryInput): Promise<GetWorkingMemoryOutput> {
    const { session, items: all } = await this.requireSession(input.session_id, input.user_id);
    const budget = requirePositiveInt(input.token_budget, 'token_budget', session.max_tokens, LIMITS.tokenBudget);
    const types = input.include_types;
    if (types && types.some((type) => !CONTENT_TYPES.includes(type as WorkingContentType))) {
      throw new MemoryError('INVALID_INPUT', `include_types may contain only ${CONTENT_TYPES.join(', ')}.`, {
        details: { field: 'include_types' },
      });
    }
    const wanted = types && types.length > 0 ? all.filter((item) => types.includes(item.content_type)) : all;
    const { items, truncated } = selectWithinBudget(wanted, budget);
    return { items, total_tokens: sum(items), truncated: truncated || wanted.length < all.length };
  }

  async state(sessionId: string, userId?: string): Promise<WorkingMemoryState> {
    const { session, items } = await this.requireSession(sessionId, userId);
    return state(session, items);
  }

  async checkpoint(input: CheckpointInput): Promise<CheckpointOutput> {
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const { session, items } = await this.requireSession(input.session_id, input.user_id);
      if (!input.force && session.total_tokens < this.deps.config.checkpointThresholdTokens) {
        return {
          memories_created: 0,
          memories_updated: 0,
          working_memory_tokens_freed: 0,
          memory_ids: [],
          skipped_reason: `Working memory holds ${session.total_tokens} tokens, below the checkpoint threshold of ${this.deps.config.checkpointThresholdTokens}; pass force: true to checkpoint anyway.`,
        };
      }
      const promoted = await this.promote(session, items);
      // Pinned items and task state stay in working memory after being saved; the rest is freed.
      const freedItems = items.filter((item) => !item.pinned && item.content_type !== 'task_state');
      const remaining = items.filter((item) => !freedItems.includes(item));
      const updated = { ...session, total_tokens: sum(remaining), last_activity: this.deps.clock.now().toISOString() };
      await this.deps.store.commitWorking({
        session: updated,
        upsert: [],
        delete: freedItems.map((item) => item.item_id),
      });
      this.emit(updated);
      return {
        memories_created: promoted.filter((entry) => entry.action === 'created_new').length,
        memories_updated: promoted.filter((entry) => entry.action !== 'created_new').length,
        working_memory_tokens_freed: sum(freedItems),
        memory_ids: [...new Set(promoted.flatMap((entry) => entry.memory_id ?? []))],
      };
    });
  }

  async clear(input: ClearWorkingMemoryInput): Promise<ClearWorkingMemoryOutput> {
    // One lock for the whole clear, so an item added between the checkpoint and the removal is
    // never removed unsaved.
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const { session, items } = await this.requireSession(input.session_id, input.user_id);
      // Clearing ends the session: whatever its size, everything worth keeping is saved first.
      const promoted = input.checkpoint_first === false ? [] : await this.promote(session, items, isKeptAtClear);
      const updated = { ...session, total_tokens: 0, last_activity: this.deps.clock.now().toISOString() };
      await this.deps.store.commitWorking({ session: updated, upsert: [], delete: items.map((item) => item.item_id) });
      this.emit(updated);
      return {
        success: true,
        memories_preserved: new Set(promoted.flatMap((entry) => entry.memory_id ?? [])).size,
        items_removed: items.length,
      };
    });
  }

  async setPinned(input: UpdateWorkingItemInput): Promise<WorkingItemRecord> {
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const { session, items } = await this.requireSession(input.session_id, input.user_id);
      const item = requireItem(session, items, input.item_id);
      const updated = { ...item, pinned: input.pinned ?? !item.pinned };
      await this.deps.store.commitWorking({ session, upsert: [updated], delete: [] });
      this.emit(session);
      return updated;
    });
  }

  async evict(input: EvictWorkingItemInput): Promise<{ evicted: string; promoted: PromotedItem[] }> {
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const { session, items } = await this.requireSession(input.session_id, input.user_id);
      const item = requireItem(session, items, input.item_id);
      const promoted = input.promote === false ? [] : await this.promote(session, [item]);
      const updated = { ...session, total_tokens: Math.max(0, session.total_tokens - item.token_count) };
      await this.deps.store.commitWorking({ session: updated, upsert: [], delete: [item.item_id] });
      this.episodeSink?.turnsEvicted(session.session_id, [item]);
      this.emit(updated);
      return { evicted: item.item_id, promoted };
    });
  }

  /** Saves items worth keeping to long-term memory (classified, deduplicated); never throws for one bad item. */
  private promote(
    session: SessionRecord,
    items: readonly WorkingItemRecord[],
    keep?: (item: WorkingItemRecord) => boolean,
  ): Promise<PromotedItem[]> {
    return this.promotion.promote(session, items, keep);
  }

  /** Waits for every scheduled promotion of evicted items (tests, shutdown). */
  drainPromotions(): Promise<void> {
    return this.promotion.drain();
  }

  /** The caller's session with its live items, read together (one store read); SESSION_NOT_FOUND for another user's. */
  private async requireSession(
    sessionId: string,
    userId: string | undefined,
  ): Promise<{ session: SessionRecord; items: WorkingItemRecord[] }> {
    const found = await this.deps.store.getSessionWithItems(requireId(sessionId, 'session_id'));
    if (!found || (userId !== undefined && found.session.user_id !== requireId(userId, 'user_id')))
      throw sessionNotFound(sessionId);
    return { session: found.session, items: live(found.items) };
  }

  private emit(session: SessionRecord): void {
    this.deps.events.emit({ type: 'working', user_id: session.user_id, session_id: session.session_id });
  }
}

/** The session's items, without evicted ones still waiting for their promotion. */
function live(items: readonly WorkingItemRecord[]): WorkingItemRecord[] {
  return items.filter((item) => !isAwaitingPromotion(item));
}

function requireItem(session: SessionRecord, items: readonly WorkingItemRecord[], itemId: string): WorkingItemRecord {
  const item = items.find((entry) => entry.item_id === requireId(itemId, 'item_id'));
  if (!item)
    throw new MemoryError('MEMORY_NOT_FOUND', `No working-memory item ${itemId} in session ${session.session_id}.`, {
      details: { item_id: itemId },
    });
  return item;
}
