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
import { type ExtractionSink, pendingExtractionMetadata } from '../extraction/pendingExtraction.ts';
import type { EpisodeSink } from '../episodes/conversationEpisodes.ts';
import {
  advanceTurn,
  completesEpisode,
  CONVERSATION_TURN,
  countsAsTurn,
  episodeStartedAt,
} from '../episodes/conversationTurns.ts';
import { EVICTION_POLICIES } from '../domain/records.ts';
import type { SessionRecord, WorkingContentType, WorkingItemRecord } from '../domain/records.ts';
import { classifyContent, isWorthKeeping, isWorthKeepingAtClear } from '../longterm/classifyContent.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { guardJson, guardText, mergeRedactions } from '../safety/contentGuard.ts';
import { newId } from '../util/ids.ts';
import { KeyedMutex } from '../util/keyedMutex.ts';
import { LIMITS, requireContent, requireId, requireMetadata, requirePositiveInt } from '../validation.ts';
import { chooseEvictions, selectWithinBudget } from './eviction.ts';
import { WORKING_CONTENT_TYPES } from '../domain/workingRecords.ts';

const CONTENT_TYPES = WORKING_CONTENT_TYPES;
/**
 * Content types never promoted: system text and retrieved memories live elsewhere already, and
 * editor context is a live view of the editor, re-captured whenever it changes (what is worth
 * keeping from it, an error and its fix, the capture stores as an outcome memory itself).
 */
const NOT_PROMOTED: ReadonlySet<WorkingContentType> = new Set(['system', 'retrieved_memory', 'editor_context']);

/** Sessions and their token-budgeted working memory (seed 000 §6.1, §7.1, §8.2). */
export class WorkingMemory {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  private readonly locks = new KeyedMutex();
  private readonly promotions = new Set<Promise<void>>();
  private readonly promotionLocks = new KeyedMutex();
  /**
   * Extraction hook (set by MemoryCore.startExtraction): promoted content is stored raw and tagged
   * pending first, then handed over for extraction off the request path. Null: promotion as before.
   */
  extractionSink: ExtractionSink | null = null;
  /** Seed 002 episodic summaries (set by MemoryCore): told each time a session completes a run of turns. */
  episodeSink: EpisodeSink | null = null;

  constructor(deps: CoreDeps, longTerm: LongTermMemory) {
    this.deps = deps;
    this.longTerm = longTerm;
  }

  async initSession(input: InitSessionInput): Promise<InitSessionOutput> {
    const userId = requireId(input.user_id, 'user_id');
    const sessionId = input.session_id === undefined ? newId('sess') : requireId(input.session_id, 'session_id');
    const maxTokens = requirePositiveInt(
      input.config?.max_tokens,
      'config.max_tokens',
      this.deps.config.defaultMaxTokens,
      LIMITS.maxTokens,
    );
    const policy = input.config?.eviction_policy;
    if (policy !== undefined && !EVICTION_POLICIES.includes(policy)) {
      throw new MemoryError('INVALID_INPUT', `config.eviction_policy must be one of ${EVICTION_POLICIES.join(', ')}.`, {
        details: { field: 'config.eviction_policy' },
      });
    }
    return this.locks.run(sessionId, async () => {
      const now = this.deps.clock.now().toISOString();
      const existing = await this.deps.store.getSession(sessionId);
      if (existing && existing.user_id !== userId) throw sessionNotFound(sessionId);
      const session: SessionRecord = existing
        ? {
            ...existing,
            max_tokens: input.config?.max_tokens ?? existing.max_tokens,
            eviction_policy: policy ?? existing.eviction_policy,
            project_id: input.project_id ?? existing.project_id,
            last_activity: now,
          }
        : {
            session_id: sessionId,
            user_id: userId,
            org_id: input.org_id ? requireId(input.org_id, 'org_id') : null,
            project_id: input.project_id ? requireId(input.project_id, 'project_id') : null,
            total_tokens: 0,
            max_tokens: maxTokens,
            eviction_policy: policy ?? this.deps.config.defaultEvictionPolicy,
            next_sequence: 1,
            created_at: now,
            last_activity: now,
            expires_at: null,
            config: {},
          };
      let items = existing ? await this.liveItems(sessionId) : [];
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
      if (existing) this.schedulePromotion(sessionId);
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
      const session = await this.requireSession(input.session_id, input.user_id);
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
      const nowIso = now.toISOString();
      const items = await this.liveItems(session.session_id);
      const replaced = input.item_id ? items.find((item) => item.item_id === input.item_id) : undefined;
      if (input.item_id && !replaced) requireId(input.item_id, 'item_id');
      const turn = countsAsTurn(input.content_type, replaced !== undefined) ? advanceTurn(session, nowIso) : null;
      const others = items.filter((item) => item !== replaced);
      const needed = sum(others) + tokenCount - session.max_tokens;
      const { evicted, freed } =
        needed > 0 ? chooseEvictions(others, needed, session.eviction_policy, now) : { evicted: [], freed: 0 };
      if (freed < needed) {
        throw new MemoryError(
          'CONTENT_TOO_LONG',
          `Working memory is full of pinned items (${sum(others.filter((item) => item.pinned))} of ${session.max_tokens} tokens); unpin or clear items before adding ${tokenCount} more.`,
          {
            details: { token_count: tokenCount, max_tokens: session.max_tokens },
          },
        );
      }
      // Promotion (classify, deduplicate, store) happens right after this call, off its path: the
      // evicted items stay in the store, marked, until they are promoted, so a crash loses none.
      const toPromote = evicted.filter((entry) => isPromotable(entry));
      const pendingPromotion = toPromote.map((entry) => ({
        ...entry,
        metadata: { ...entry.metadata, [EVICTED_AT]: nowIso },
      }));
      const promoted: PromotedItem[] = toPromote.map((entry) => ({
        item_id: entry.item_id,
        memory_id: null,
        action: 'queued',
      }));
      const item: WorkingItemRecord = {
        item_id: replaced?.item_id ?? input.item_id ?? newId('wmi'),
        session_id: session.session_id,
        user_id: session.user_id,
        content_type: input.content_type,
        content,
        token_count: tokenCount,
        relevance_score: typeof metadata.relevance === 'number' ? Math.max(0, Math.min(1, metadata.relevance)) : 1,
        pinned: input.pinned ?? replaced?.pinned ?? false,
        sequence_num: replaced?.sequence_num ?? session.next_sequence,
        created_at: replaced?.created_at ?? nowIso,
        last_accessed: nowIso,
        // The turn number travels with the item into long-term memory when it is promoted.
        metadata: turn ? { ...metadata, [CONVERSATION_TURN]: turn.turn } : metadata,
      };
      const remaining = [...others.filter((other) => !evicted.includes(other)), item];
      const updated: SessionRecord = {
        ...session,
        total_tokens: sum(remaining),
        next_sequence: replaced ? session.next_sequence : session.next_sequence + 1,
        last_activity: nowIso,
        ...(turn ? { config: turn.config } : {}),
      };
      await this.deps.store.commitWorking({
        session: updated,
        upsert: [item, ...pendingPromotion],
        delete: evicted.filter((entry) => !toPromote.includes(entry)).map((entry) => entry.item_id),
      });
      if (pendingPromotion.length > 0) this.schedulePromotion(session.session_id);
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
    const session = await this.requireSession(input.session_id, input.user_id);
    const budget = requirePositiveInt(input.token_budget, 'token_budget', session.max_tokens, LIMITS.tokenBudget);
    const types = input.include_types;
    if (types && types.some((type) => !CONTENT_TYPES.includes(type as WorkingContentType))) {
      throw new MemoryError('INVALID_INPUT', `include_types may contain only ${CONTENT_TYPES.join(', ')}.`, {
        details: { field: 'include_types' },
      });
    }
    const all = await this.liveItems(session.session_id);
    const wanted = types && types.length > 0 ? all.filter((item) => types.includes(item.content_type)) : all;
    const { items, truncated } = selectWithinBudget(wanted, budget);
    return { items, total_tokens: sum(items), truncated: truncated || wanted.length < all.length };
  }

  async state(sessionId: string, userId?: string): Promise<WorkingMemoryState> {
    const session = await this.requireSession(sessionId, userId);
    return state(session, await this.liveItems(session.session_id));
  }

  async checkpoint(input: CheckpointInput): Promise<CheckpointOutput> {
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const session = await this.requireSession(input.session_id, input.user_id);
      const items = await this.liveItems(session.session_id);
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
      const session = await this.requireSession(input.session_id, input.user_id);
      const items = await this.liveItems(session.session_id);
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
      const session = await this.requireSession(input.session_id, input.user_id);
      const item = await this.requireItem(session, input.item_id);
      const updated = { ...item, pinned: input.pinned ?? !item.pinned };
      await this.deps.store.commitWorking({ session, upsert: [updated], delete: [] });
      this.emit(session);
      return updated;
    });
  }

  async evict(input: EvictWorkingItemInput): Promise<{ evicted: string; promoted: PromotedItem[] }> {
    return this.locks.run(requireId(input.session_id, 'session_id'), async () => {
      const session = await this.requireSession(input.session_id, input.user_id);
      const item = await this.requireItem(session, input.item_id);
      const promoted = input.promote === false ? [] : await this.promote(session, [item]);
      const updated = { ...session, total_tokens: Math.max(0, session.total_tokens - item.token_count) };
      await this.deps.store.commitWorking({ session: updated, upsert: [], delete: [item.item_id] });
      this.episodeSink?.turnsEvicted(session.session_id, [item]);
      this.emit(updated);
      return { evicted: item.item_id, promoted };
    });
  }

  /** Saves items worth keeping to long-term memory (classified, deduplicated); never throws for one bad item. */
  private async promote(
    session: SessionRecord,
    items: readonly WorkingItemRecord[],
    keep: (item: WorkingItemRecord) => boolean = isPromotable,
  ): Promise<PromotedItem[]> {
    const promoted: PromotedItem[] = [];
    for (const item of items) {
      if (!keep(item)) continue;
      const classification = classifyContent(
        item.content,
        item.content_type === 'task_state' ? { category: 'episodic', subtype: 'event' } : undefined,
      );
      const extraction = this.extractionSink;
      const result = await this.longTerm.store({
        user_id: session.user_id,
        content: item.content,
        memory_category: classification.memory_category,
        memory_subtype: classification.memory_subtype,
        importance: item.pinned ? Math.max(0.8, classification.importance) : classification.importance,
        ...(classification.entities.length > 0 ? { entities: classification.entities } : {}),
        metadata: {
          ...item.metadata,
          working_item_id: item.item_id,
          content_type: item.content_type,
          classified_by: `rules:${classification.rule}`,
          ...(extraction ? pendingExtractionMetadata(item.metadata) : {}),
        },
        project_id: session.project_id,
        session_id: session.session_id,
        source_type: 'working_memory',
        confidence: 0.9,
      });
      promoted.push({
        item_id: item.item_id,
        memory_id: result.memory_id,
        action: result.similar_existing?.action ?? 'created_new',
      });
      extraction?.enqueue({ user_id: session.user_id, memory_id: result.memory_id });
    }
    return promoted;
  }

  /** Waits for every scheduled promotion of evicted items (tests, shutdown). */
  async drainPromotions(): Promise<void> {
    while (this.promotions.size > 0) await Promise.all([...this.promotions]);
  }

  /** The session's items, without evicted ones still waiting for their promotion. */
  private async liveItems(sessionId: string): Promise<WorkingItemRecord[]> {
    return (await this.deps.store.listWorkingItems(sessionId)).filter((item) => !isAwaitingPromotion(item));
  }

  private schedulePromotion(sessionId: string): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.promotionLocks.run(sessionId, () => this.promoteEvicted(sessionId)))
      .catch((error: unknown) => {
        // The items stay marked in the store; the next touch of the session retries them.
        this.deps.log.warn(`promoting evicted working memory of ${sessionId} failed; will retry`, error);
      })
      .finally(() => this.promotions.delete(run));
    this.promotions.add(run);
  }

  /**
   * Stores the session's evicted items as long-term memories, then removes them from working
   * memory. Only the removal takes the session's lock, so calls on the session are not held up
   * by the long-term writes; promotions of one session run one at a time.
   */
  private async promoteEvicted(sessionId: string): Promise<void> {
    const session = await this.deps.store.getSession(sessionId);
    if (!session) return;
    const waiting = (await this.deps.store.listWorkingItems(sessionId)).filter(isAwaitingPromotion);
    if (waiting.length === 0) return;
    await this.promote(session, waiting);
    await this.locks.run(sessionId, async () => {
      const current = await this.deps.store.getSession(sessionId);
      if (current)
        await this.deps.store.commitWorking({
          session: current,
          upsert: [],
          delete: waiting.map((item) => item.item_id),
        });
    });
  }

  private async requireSession(sessionId: string, userId: string | undefined): Promise<SessionRecord> {
    const session = await this.deps.store.getSession(requireId(sessionId, 'session_id'));
    if (!session || (userId !== undefined && session.user_id !== requireId(userId, 'user_id')))
      throw sessionNotFound(sessionId);
    return session;
  }

  private async requireItem(session: SessionRecord, itemId: string): Promise<WorkingItemRecord> {
    const items = await this.liveItems(session.session_id);
    const item = items.find((entry) => entry.item_id === requireId(itemId, 'item_id'));
    if (!item)
      throw new MemoryError('MEMORY_NOT_FOUND', `No working-memory item ${itemId} in session ${session.session_id}.`, {
        details: { item_id: itemId },
      });
    return item;
  }

  private emit(session: SessionRecord): void {
    this.deps.events.emit({ type: 'working', user_id: session.user_id, session_id: session.session_id });
  }
}

/** Metadata key marking an evicted item that is kept only until it is promoted. */
const EVICTED_AT = 'evicted_at';

export function isAwaitingPromotion(item: WorkingItemRecord): boolean {
  return typeof item.metadata[EVICTED_AT] === 'string';
}

function isPromotable(item: WorkingItemRecord): boolean {
  return !NOT_PROMOTED.has(item.content_type) && isWorthKeeping(item.content, item.token_count);
}

function isKeptAtClear(item: WorkingItemRecord): boolean {
  return !NOT_PROMOTED.has(item.content_type) && isWorthKeepingAtClear(item.content, item.token_count);
}

function sessionNotFound(sessionId: string): MemoryError {
  return new MemoryError(
    'SESSION_NOT_FOUND',
    `No session ${sessionId} exists for this user; call init_session first.`,
    { details: { session_id: sessionId } },
  );
}

function sum(items: readonly WorkingItemRecord[]): number {
  return items.reduce((total, item) => total + item.token_count, 0);
}

function state(session: SessionRecord, items: WorkingItemRecord[]): WorkingMemoryState {
  return {
    session_id: session.session_id,
    user_id: session.user_id,
    project_id: session.project_id,
    max_tokens: session.max_tokens,
    total_tokens: sum(items),
    eviction_policy: session.eviction_policy,
    item_count: items.length,
    items,
  };
}
