import type { ForgetAllInput, ForgetAllOutput, ForgetMemoryInput, ForgetMemoryOutput } from '../api/longTermApi.ts';
import { FORGET_ALL_CONFIRMATION } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { partitionForCall } from '../layers/layerScope.ts';
import { requireId } from '../validation.ts';
import { forgetIds } from './changeInputs.ts';

/** Forgetting (soft or hard), restoring, and erasing a whole user. */
export class ForgetMemories {
  private readonly deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  /**
   * Forgets one memory (`memory_id`) or many (`memory_ids`) in one store write. One id that does
   * not exist is MEMORY_NOT_FOUND; in a batch, ids that do not exist are listed in `not_found` and
   * the others are forgotten (MEMORY_NOT_FOUND only when none exists).
   */
  async forget(input: ForgetMemoryInput): Promise<ForgetMemoryOutput> {
    const userId = partitionForCall(input);
    const ids = forgetIds(input);
    if (input.hard_delete) {
      // Queued access-log rows (with the queries that found it) are written first, so the delete
      // takes them too instead of a later flush bringing them back.
      await this.deps.access.flush();
      const removed: string[] = [];
      const notFound: string[] = [];
      for (const [position, id] of ids.entries()) {
        try {
          if (await this.deps.store.hardDeleteMemory(userId, id)) removed.push(id);
          else notFound.push(id);
        } catch (error) {
          throw this.partialErasure(userId, removed, notFound, ids.slice(position), error);
        }
      }
      this.requireSomeFound(ids, notFound);
      if (removed.length > 0)
        this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: removed, change: 'purged' });
      return { success: true, hard_deleted: true, forgotten: removed, not_found: notFound };
    }
    const now = this.deps.clock.now().toISOString();
    const outcome = await this.deps.store.forgetMemories(userId, ids, now);
    this.requireSomeFound(ids, outcome.missing);
    if (outcome.changed.length > 0)
      this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: outcome.changed, change: 'deleted' });
    return {
      success: true,
      hard_deleted: false,
      forgotten: [...outcome.changed, ...outcome.unchanged],
      not_found: outcome.missing,
    };
  }

  /**
   * Erasure is one transaction per memory: an erased memory cannot be put back, so a failure part
   * way through a batch leaves the memories before it erased. The error says so, names which were
   * erased and which were not, and the erased ones are announced as purged; forgetting the same ids
   * again finishes the batch (the erased ones come back as not_found).
   */
  private partialErasure(
    userId: string,
    erased: string[],
    notFound: string[],
    notErased: string[],
    error: unknown,
  ): MemoryError {
    if (erased.length > 0)
      this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: erased, change: 'purged' });
    const code = MemoryError.is(error) ? error.code : 'PROVIDER_ERROR';
    const reason = error instanceof Error ? error.message : String(error);
    return new MemoryError(
      code,
      `Erased ${erased.length} of ${erased.length + notFound.length + notErased.length} memories before the store failed (${reason}); the other ${notErased.length} are not erased: forget them again.`,
      {
        details: {
          ...(MemoryError.is(error) ? error.details : {}),
          erased,
          not_found: notFound,
          not_erased: notErased,
        },
        cause: error,
      },
    );
  }

  private requireSomeFound(ids: readonly string[], missing: readonly string[]): void {
    if (missing.length < ids.length) return;
    throw new MemoryError(
      'MEMORY_NOT_FOUND',
      ids.length === 1
        ? `No memory ${ids[0]} exists for this user.`
        : `None of the ${ids.length} memories exists for this user.`,
      { details: ids.length === 1 ? { memory_id: ids[0] } : { memory_ids: [...ids] } },
    );
  }

  async restore(userId: string, memoryId: string): Promise<MemoryRecord> {
    const [restored] = await this.restoreMany(userId, [memoryId]);
    return restored;
  }

  /** The undo of forget: the only way deleted_at is cleared. One store write for all ids. */
  async restoreMany(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    const user = requireId(userId, 'user_id');
    const ids = memoryIds.map((id) => requireId(id, 'memory_id'));
    const outcome = await this.deps.store.restoreMemories(user, ids, this.deps.clock.now().toISOString());
    this.requireSomeFound(ids, outcome.missing);
    if (outcome.changed.length > 0)
      this.deps.events.emit({ type: 'memory', user_id: user, memory_ids: outcome.changed, change: 'restored' });
    return this.deps.store.getMemories(user, ids);
  }

  async forgetAll(input: ForgetAllInput): Promise<ForgetAllOutput> {
    const userId = requireId(input.user_id, 'user_id');
    if (input.confirmation !== FORGET_ALL_CONFIRMATION) {
      throw new MemoryError(
        'CONFIRMATION_REQUIRED',
        `To delete every memory of ${userId}, pass confirmation exactly "${FORGET_ALL_CONFIRMATION}".`,
        {
          details: { field: 'confirmation' },
        },
      );
    }
    // As for hard deletes: queued access-log rows must not land after the erasure.
    await this.deps.access.flush();
    const receipt = await this.deps.store.deleteUser(userId);
    this.deps.events.emit({ type: 'user-cleared', user_id: userId });
    return receipt;
  }
}
