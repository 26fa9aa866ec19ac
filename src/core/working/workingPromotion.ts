import type { PromotedItem } from '../api/workingMemoryApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { SessionRecord, WorkingItemRecord } from '../domain/records.ts';
import { type ExtractionSink, pendingExtractionMetadata } from '../extraction/pendingExtraction.ts';
import { classifyContent } from '../longterm/classifyContent.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { KeyedMutex } from '../util/keyedMutex.ts';
import { isAwaitingPromotion, isPromotable } from './promotedItems.ts';

/**
 * Working memory promoted to long-term memory: at checkpoint, clear and eviction, and in the
 * background for items evicted while a call was adding (they wait in the store, marked).
 */
export class WorkingPromotion {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  /** The sessions' locks, shared with WorkingMemory: removing promoted items is a change of the session. */
  private readonly locks: KeyedMutex;
  private readonly promotions = new Set<Promise<void>>();
  private readonly promotionLocks = new KeyedMutex();
  /** Set through WorkingMemory.extractionSink. */
  extractionSink: ExtractionSink | null = null;

  constructor(deps: CoreDeps, longTerm: LongTermMemory, locks: KeyedMutex) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.locks = locks;
  }

  /** Saves items worth keeping to long-term memory (classified, deduplicated); never throws for one bad item. */
  async promote(
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
  async drain(): Promise<void> {
    while (this.promotions.size > 0) await Promise.all([...this.promotions]);
  }

  schedule(sessionId: string): void {
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
}
