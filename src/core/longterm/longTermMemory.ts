import type {
  ForgetAllInput,
  ForgetAllOutput,
  ForgetMemoryInput,
  ForgetMemoryOutput,
  StoreMemoryInput,
  StoreMemoryOutput,
  UpdateMemoryInput,
  UpdateMemoryOutput,
} from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { requireId } from '../validation.ts';
import { EditMemory, type EditSearchKeysInput } from './editMemory.ts';
import { EnrichmentHook, type EnrichmentSink } from './enrichmentHook.ts';
import { ForgetMemories } from './forgetMemories.ts';
import { requireMemory } from './requireMemory.ts';
import { StoreMemory } from './storeMemory.ts';

export type { EditSearchKeysInput } from './editMemory.ts';
export type { EnrichmentSink } from './enrichmentHook.ts';

/**
 * Storing, correcting and forgetting long-term memories (seed 000 §7.1 long-term tools): one
 * entry point over the store path (storeMemory.ts), edits (editMemory.ts) and forgetting
 * (forgetMemories.ts).
 */
export class LongTermMemory {
  private readonly deps: CoreDeps;
  private readonly enrichment = new EnrichmentHook();
  private readonly storing: StoreMemory;
  private readonly editing: EditMemory;
  private readonly forgetting: ForgetMemories;

  constructor(deps: CoreDeps) {
    this.deps = deps;
    this.storing = new StoreMemory(deps, this.enrichment);
    this.editing = new EditMemory(deps, this.enrichment);
    this.forgetting = new ForgetMemories(deps);
  }

  /**
   * Background enrichment (issue #14): when set, every stored or edited memory is written already
   * tagged enrichment:pending and queued after the write, so a store never waits for a model.
   */
  get enrichmentSink(): EnrichmentSink | null {
    return this.enrichment.sink;
  }

  set enrichmentSink(sink: EnrichmentSink | null) {
    this.enrichment.sink = sink;
  }

  store(input: StoreMemoryInput): Promise<StoreMemoryOutput> {
    return this.storing.store(input);
  }

  update(input: UpdateMemoryInput): Promise<UpdateMemoryOutput> {
    return this.editing.update(input);
  }

  /** The user's own edit of a memory's search keys (the panel): added keys are the user's, removed ones stay removed. */
  editSearchKeys(input: EditSearchKeysInput): Promise<MemoryRecord> {
    return this.editing.editSearchKeys(input);
  }

  /**
   * Forgets one memory (`memory_id`) or many (`memory_ids`) in one store write; see
   * ForgetMemories.forget for what is not found.
   */
  forget(input: ForgetMemoryInput): Promise<ForgetMemoryOutput> {
    return this.forgetting.forget(input);
  }

  restore(userId: string, memoryId: string): Promise<MemoryRecord> {
    return this.forgetting.restore(userId, memoryId);
  }

  /** The undo of forget: the only way deleted_at is cleared. One store write for all ids. */
  restoreMany(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    return this.forgetting.restoreMany(userId, memoryIds);
  }

  forgetAll(input: ForgetAllInput): Promise<ForgetAllOutput> {
    return this.forgetting.forgetAll(input);
  }

  get(userId: string, memoryId: string): Promise<MemoryRecord> {
    return requireMemory(this.deps.store, requireId(userId, 'user_id'), requireId(memoryId, 'memory_id'));
  }
}
